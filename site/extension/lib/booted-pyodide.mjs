async function e(){let o=globalThis.__agentTeamBooted;if(!o)throw new Error("agent_team: this kernel worker was never asked to boot Pyodide");return o}export{e as loadPyodide};
