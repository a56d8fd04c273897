// The single-file page's only inline script (allowed by its hash in the page's CSP). It starts the page
// from the blocks build.mjs inlined: the .wasm (base64), the page and the worker linked into classic
// scripts. Both run from blob: URLs, so nothing is fetched; a page opened from file:// may not run ES
// modules, hence the classic scripts.
(() => {
  'use strict';
  const text = (id) => document.getElementById(id).textContent;
  const blobUrl = (source) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const decode = (base64) => {
    const binary = atob(base64.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
  const fail = (error) => {
    const verdict = document.getElementById('verdict');
    verdict.dataset.verdict = 'error';
    verdict.textContent = `The verifier could not start: ${error && error.message ? error.message : error}`;
  };
  const base64 = text('fm-wasm');
  self.__fairminesWasmBytes = decode(base64);
  const workerSource =
    `self.__fairminesWasmBytes = (${decode})(${JSON.stringify(base64.trim())});\n` +
    `${text('fm-worker')}.catch((e) => postMessage({ type: 'error', message: String(e && e.message || e) }));\n`;
  let workerUrl = null;
  self.__fairminesWorker = () => new Worker((workerUrl ||= blobUrl(workerSource)));
  self.__fairminesStart = (started) => started.catch(fail);
  const script = document.createElement('script');
  script.src = blobUrl(`self.__fairminesStart(${text('fm-app')});\n`);
  script.onerror = () => fail('the page script did not load');
  document.body.append(script);
})();
