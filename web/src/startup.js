// Loaded before the page's module (a classic script, so it runs even where the module cannot): when the
// module or the package fails to load, say so in the verdict instead of leaving a page that does nothing.
addEventListener('error', (event) => {
  if (document.documentElement.dataset.ready === 'true') return;
  const verdict = document.getElementById('verdict');
  if (!verdict) return;
  verdict.dataset.verdict = 'error';
  verdict.textContent = `The verifier could not start: ${event.message || 'a script did not load'}` +
    (location.protocol === 'file:' ? ' (opened from disk: use fairmines-verifier.html, or serve this folder)' : '');
}, true);
