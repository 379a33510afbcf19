// The release page's wasm comes in two parts (crates/wasm-split): the primary
// runs the first screen; the secondary holds every function the first screen
// did not run. This script lets wasm-bindgen's loader instantiate the primary
// as usual, fetches the secondary alongside it, and links the two. A call into
// a function that has not arrived yet lands on a placeholder, which loads the
// secondary at once and calls through. A page built without the split has no
// `link[data-wq-lazy]` and is left alone. A page opened on a link, an embed
// or a lesson waits for both parts before it starts.
(() => {
  const W = WebAssembly;
  const real = { streaming: W.instantiateStreaming, instantiate: W.instantiate };
  let primary = null; // { imports, exports }, once instantiated
  let secondaryUrl = null;
  let linked = false;

  const link = (module) => {
    if (linked) return;
    // Instantiating runs the secondary's element segments, which write the
    // real functions over the placeholders in the primary's table.
    new W.Instance(module, { ...primary.imports, primary: primary.exports });
    linked = true;
  };

  // A placeholder ran before the secondary arrived: fetch and compile it now.
  const linkNow = () => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', secondaryUrl, false);
    xhr.overrideMimeType('text/plain; charset=x-user-defined');
    xhr.send();
    if (xhr.status !== 200) throw new Error(`wasm-split: ${secondaryUrl} answered ${xhr.status}`);
    const text = xhr.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    link(new W.Module(bytes));
  };

  const placeholders = new Proxy({}, {
    get: (_, slot) => (...args) => {
      if (!linked) linkNow();
      return primary.exports.wq_table.get(Number(slot))(...args);
    },
  });

  // Wraps one of WebAssembly's instantiate calls for the primary module.
  let secondary = null;
  const wrap = (instantiate) => async (source, imports) => {
    const marker = document.querySelector('link[data-wq-lazy]');
    if (primary || !marker || !imports) return instantiate(source, imports);
    secondaryUrl = marker.href;
    const compile = () => (secondary ??= W.compileStreaming(fetch(secondaryUrl)));
    // A link, embed or lesson opens past the first screen: start with both
    // parts, compiled side by side. Otherwise the primary compiles alone and
    // the rest (its bytes already preloaded) once the first screen is up.
    const eager = location.search.length > 1 || location.hash.length > 1;
    if (eager) compile();
    const result = await instantiate(source, { ...imports, wq_lazy: placeholders });
    const instance = result instanceof W.Instance ? result : result.instance;
    primary = { imports, exports: instance.exports };
    if (eager) {
      try { link(await secondary); } catch (e) { console.warn(`wasm-split: ${e}`); }
    } else {
      setTimeout(() => compile().then(link).catch((e) => console.warn(`wasm-split: the rest of the page loads on first use (${e})`)));
    }
    return result;
  };

  W.instantiateStreaming = wrap(real.streaming);
  W.instantiate = wrap(real.instantiate);
})();
