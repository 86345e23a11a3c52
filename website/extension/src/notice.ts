/**
 * One line for the learner, in a bar at the bottom of the page (at the top it hid JupyterLab's
 * menu bar), with a button that closes it: what is missing and what to do (capabilities.ts has
 * the lines). Shared by the page script (before JupyterLab exists) and the plugin, so it is plain
 * DOM. Each line is shown once, and also logged for the browser tests.
 */

const BAR = 'agent-team-notices';

/** A choice offered with a line: `run` does it and returns what the line says afterwards. */
export interface INoticeAction {
  label: string;
  run: () => Promise<string>;
}

export function notice(text: string, level: 'warning' | 'error' = 'warning', actions: INoticeAction[] = []): void {
  console.warn(`agent_team: ${text}`);
  const show = () => {
    let bar = document.getElementById(BAR);
    if (!bar) {
      bar = document.createElement('div');
      bar.id = BAR;
      bar.setAttribute('role', 'status');
      bar.style.cssText = 'position:fixed;bottom:0;left:0;right:0;z-index:10000;font:14px sans-serif;';
      document.body.appendChild(bar);
    }
    if (Array.from(bar.querySelectorAll('.agent-team-notice')).some((line) => line.textContent === text)) {
      return;
    }
    const row = document.createElement('div');
    row.style.cssText = 'display:flex;align-items:center;color:#1a1a1a;'
      + `background:${level === 'error' ? '#f8d0d0' : '#fdf0c2'};border-top:1px solid #b0a070;`;
    const line = document.createElement('p');
    line.className = `agent-team-notice agent-team-${level}`;
    line.textContent = text;
    line.style.cssText = 'margin:0;padding:4px 12px;flex:1;';
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.title = 'Close this message';
    close.setAttribute('aria-label', 'Close this message');
    close.style.cssText = 'margin:0 8px;border:0;background:none;font:18px sans-serif;cursor:pointer;';
    close.addEventListener('click', () => row.remove());
    const buttons = actions.map(({ label, run }) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.className = 'agent-team-notice-action';
      button.style.cssText = 'margin:2px 4px;font:13px sans-serif;cursor:pointer;';
      button.addEventListener('click', async () => {
        buttons.forEach((b) => (b.disabled = true));
        try {
          line.textContent = await run();
          buttons.forEach((b) => b.remove());
        } catch (error) {
          line.textContent = `${text} (That did not work: ${error instanceof Error ? error.message : error}.)`;
          buttons.forEach((b) => (b.disabled = false));
        }
      });
      return button;
    });
    row.append(line, ...buttons, close);
    bar.appendChild(row);
  };
  if (typeof document === 'undefined') {
    return;
  }
  if (document.body) {
    show();
  } else {
    document.addEventListener('DOMContentLoaded', show, { once: true });
  }
}
