// stable.js — the first part of cogflow's in-page script (see page.go).
// It runs before any page script of every document (EvalOnNewDocument)
// and instruments what "the page is stable" depends on: in-flight
// fetch/XHR (and body reads), pending animation-frame callbacks and short
// timers, DOM mutations (also inside shadow roots) and navigations the page
// started itself. Nothing here polls: waits resolve on events, bounded by
// deadlines.
if (window.__cogflow_v1) return;
const G = window;
const now = () => performance.now();
const origTimeout = G.setTimeout.bind(G);
const origClearTimeout = G.clearTimeout.bind(G);
const origRAF = G.requestAnimationFrame ? G.requestAnimationFrame.bind(G) : (f) => origTimeout(f, 16);
const S = {
  mut: 0,             // DOM mutations seen
  inflight: new Map(), // request id -> start time
  seq: 0,
  raf: new Set(),      // pending page rAF ids
  timers: new Set(),   // pending page timers of at most SHORT ms
  nav: null,           // the navigate event of a pending cross-document navigation
  submit: null,        // a form submission whose navigation has not begun
  submitAt: 0,
  navAt: 0,
  waiters: new Set(),  // called on any change
  closedRoots: new WeakMap(), // host -> closed shadow root
};
const SHORT = 100;     // timers up to this delay count as pending work
const LONG_REQUEST = 5000; // requests older than this are taken as long polls
function changed() {
  const ws = Array.from(S.waiters);
  S.waiters.clear();
  for (const w of ws) w();
}
// nextChange resolves at the next change of S, or after ms.
function nextChange(ms) {
  return new Promise((resolve) => {
    let t = 0;
    const done = () => { origClearTimeout(t); S.waiters.delete(done); resolve(); };
    S.waiters.add(done);
    t = origTimeout(done, Math.max(0, ms));
  });
}
// frame resolves at the next animation frame (or after 100 ms: a hidden
// page gets no frames).
function frame() {
  return new Promise((r) => {
    const t = origTimeout(r, 100);
    origRAF(() => { origClearTimeout(t); r(); });
  });
}

// --- network -------------------------------------------------------------
function begin() { const id = ++S.seq; S.inflight.set(id, now()); return id; }
function end(id) { if (S.inflight.delete(id)) changed(); }
if (G.fetch) {
  const origFetch = G.fetch;
  G.fetch = function fetch(...args) {
    const id = begin();
    let p;
    try { p = origFetch.apply(this, args); } catch (e) { end(id); throw e; }
    p.then(() => end(id), () => end(id));
    return p;
  };
}
if (G.Response) {
  for (const m of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
    const orig = G.Response.prototype[m];
    if (!orig) continue;
    G.Response.prototype[m] = function (...args) {
      const id = begin();
      const p = orig.apply(this, args);
      p.then(() => end(id), () => end(id));
      return p;
    };
  }
}
if (G.XMLHttpRequest) {
  const origSend = G.XMLHttpRequest.prototype.send;
  G.XMLHttpRequest.prototype.send = function (...args) {
    const id = begin();
    this.addEventListener('loadend', () => end(id), { once: true });
    try { return origSend.apply(this, args); } catch (e) { end(id); throw e; }
  };
}

// --- scheduled work ---------------------------------------------------------
if (G.requestAnimationFrame) {
  const origCAF = G.cancelAnimationFrame.bind(G);
  G.requestAnimationFrame = function requestAnimationFrame(cb) {
    const id = origRAF((t) => { S.raf.delete(id); try { cb(t); } finally { changed(); } });
    S.raf.add(id);
    return id;
  };
  G.cancelAnimationFrame = function cancelAnimationFrame(id) {
    if (S.raf.delete(id)) changed();
    return origCAF(id);
  };
}
G.setTimeout = function setTimeout(cb, ms, ...args) {
  if (typeof cb !== 'function' || (Number(ms) || 0) > SHORT) return origTimeout(cb, ms, ...args);
  const id = origTimeout(() => { S.timers.delete(id); try { cb(...args); } finally { changed(); } }, ms);
  S.timers.add(id);
  return id;
};
G.clearTimeout = function clearTimeout(id) {
  if (S.timers.delete(id)) changed();
  return origClearTimeout(id);
};

// --- mutations --------------------------------------------------------------
const MO_OPTS = { subtree: true, childList: true, attributes: true, characterData: true };
const mo = new MutationObserver((recs) => { S.mut += recs.length; changed(); });
mo.observe(document, MO_OPTS);
function flush() { S.mut += mo.takeRecords().length; }
if (G.Element && Element.prototype.attachShadow) {
  const origAttach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = origAttach.call(this, init);
    try { mo.observe(root, MO_OPTS); } catch (e) { /* ignore */ }
    if (init && init.mode === 'closed') S.closedRoots.set(this, root);
    return root;
  };
}
document.addEventListener('readystatechange', changed);

// --- navigations the page starts ------------------------------------------
// A form submission navigates in a later task than the click that made
// it, so the click's stable check could run before the navigation starts
// and a next step (closing the tab, opening a page) would cancel it. A
// submit event that no handler prevented counts as a navigation pending
// until the navigation begins, or for at most a second.
// The listener is marked as cogflow's own: the recorder's check for a page
// script handling a form's submission passes over it (record_form.go).
const submitSeen = (e) => { S.submit = e; S.submitAt = now(); };
Object.defineProperty(submitSeen, '__cogflowOwn', { value: true });
document.addEventListener('submit', submitSeen, true);
if (G.navigation && G.navigation.addEventListener) {
  G.navigation.addEventListener('navigate', (e) => {
    S.submit = null;
    if (e.destination && !e.destination.sameDocument && !e.hashChange) { S.nav = e; S.navAt = now(); }
    changed();
  });
  const clear = () => { S.nav = null; changed(); };
  G.navigation.addEventListener('navigatesuccess', clear);
  G.navigation.addEventListener('navigateerror', clear);
}
G.addEventListener('pageshow', () => { S.nav = null; changed(); });
function navPending() {
  if (S.submit) {
    if (S.submit.defaultPrevented || now() - S.submitAt > 1000) S.submit = null;
    else return true;
  }
  if (!S.nav) return false;
  if (S.nav.defaultPrevented || now() - S.navAt > 2000) { S.nav = null; return false; }
  return true;
}

// --- the stable check ---------------------------------------------------------
// frames lists this window and its same-origin descendant windows that run
// this script, so a page with iframes is stable only when they all are.
function frames() {
  const out = [S];
  const walk = (w, depth) => {
    if (depth > 4) return;
    for (let i = 0; i < w.frames.length; i++) {
      let f = null;
      try { f = w.frames[i].__cogflow_v1; } catch (e) { f = null; }
      if (f && f.S) out.push(f.S);
      try { walk(w.frames[i], depth + 1); } catch (e) { /* cross-origin */ }
    }
  };
  walk(G, 0);
  return out;
}
function snapshot() {
  flush();
  const t = now();
  const s = { mut: 0, requests: 0, raf: 0, timers: 0 };
  for (const f of frames()) {
    s.mut += f.mut;
    for (const started of f.inflight.values()) if (t - started < LONG_REQUEST) s.requests++;
    s.raf += f.raf.size;
    s.timers += f.timers.size;
  }
  return s;
}
// stable resolves when the document is complete, no navigation is pending,
// no request is in flight, short timers have run and — when anything
// changed since mark (a mutation count from an earlier call, -1 when
// unknown) or frame callbacks are pending — one animation frame passed with
// no DOM mutation. Short timers and frame-by-frame mutations are waited for
// at most a second (a page may animate forever). It never rejects: {ok:false, why} tells the deadline
// passed first.
async function stable(a) {
  const deadline = now() + (a.ms || 10000);
  const quietBy = now() + Math.min(a.ms || 10000, 1000);
  let mark = a.mark === undefined ? -1 : a.mark;
  for (;;) {
    const left = deadline - now();
    if (navPending()) {
      if (left <= 0) return { ok: false, why: 'a navigation is still pending' };
      await nextChange(Math.min(left, S.nav ? S.navAt + 2001 - now() : S.submitAt + 1001 - now()));
      continue;
    }
    if (document.readyState !== 'complete') {
      if (left <= 0) return { ok: false, why: 'the document is still loading' };
      await nextChange(left);
      continue;
    }
    const s = snapshot();
    if (s.requests > 0) {
      if (left <= 0) return { ok: false, why: s.requests + ' request(s) still in flight' };
      await nextChange(left);
      continue;
    }
    if (s.timers > 0 && now() < quietBy) {
      await nextChange(quietBy - now());
      continue;
    }
    if (s.mut === mark && s.raf === 0) return { ok: true, mark: s.mut };
    await frame();
    const after = snapshot();
    if (after.mut === s.mut && after.requests === 0 && !navPending()) return { ok: true, mark: after.mut };
    if (now() > quietBy) return { ok: true, busy: true, mark: after.mut };
    mark = -1; // something changed in that frame: wait for a quiet one
  }
}
