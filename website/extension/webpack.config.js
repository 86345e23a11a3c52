// Added to JupyterLab's extension build (@jupyter/builder): files the kernel loads by URL are
// copied as they are, never parsed and re-bundled (the workers are already self-contained ES
// modules: build-workers.mjs), as the Pyodide kernel's own extension does.
module.exports = {
  module: {
    rules: [
      { test: /(\.worker\.js|booted-pyodide\.mjs)$/, type: 'asset/resource',
        generator: { filename: '[name].[contenthash][ext]' } },
      { test: /pypi\/.*/, type: 'asset/resource', generator: { filename: 'pypi/[name][ext][query]' } },
    ],
  },
};
