// record.js — the recorder's in-page part. It runs in every document of a
// recorded tab (after a private copy of walker.js, so targets carry the
// same normalized attributes as Observe) and reports each user event
// through the exposed binding __cogflowRecord as JSON: the kind, its data,
// and for targeted events the walked page with the target's index.
if (G.__cogflow_rec_v1) return;
Object.defineProperty(G, '__cogflow_rec_v1', { value: true, enumerable: false, configurable: true });
const send = (m) => { try { G.__cogflowRecord(JSON.stringify(m)); } catch (e) { /* binding gone */ } };
const top = G === G.top;
function walkedTarget(el) {
  const o = observe();
  const refs = new Map();
  o.els.forEach((e, i) => refs.set(e.r, i));
  for (let a = el; a; a = a.parentElement || (a.getRootNode && a.getRootNode().host) || null) {
    if (a.nodeType !== 1) continue;
    const i = refs.get(refOf(a));
    if (i !== undefined) return { snap: o, ti: i };
  }
  return { snap: o, ti: -1 };
}
function elOf(e) {
  let t = e.composedPath ? e.composedPath()[0] : e.target;
  if (t && t.nodeType !== 1) t = t.parentElement;
  return t;
}
function mods(e) { return { ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey }; }
function report(kind, el, extra) {
  const m = Object.assign({ k: kind, url: location.href, title: top ? document.title : '', top }, extra || {});
  if (el) Object.assign(m, walkedTarget(el));
  send(m);
}
function valueOfEl(el) {
  if (!el) return '';
  if ('value' in el && typeof el.value === 'string') return el.value;
  if (el.isContentEditable) return el.innerText;
  return '';
}
const opts = { capture: true };
G.addEventListener('click', (e) => {
  if (e.button !== 0 || !e.isTrusted) return;
  report('click', elOf(e), { button: 'left', x: e.clientX, y: e.clientY, mods: mods(e), detail: e.detail });
}, opts);
G.addEventListener('auxclick', (e) => {
  if (e.button !== 1 || !e.isTrusted) return;
  report('middleclick', elOf(e), { button: 'middle', x: e.clientX, y: e.clientY, mods: mods(e) });
}, opts);
G.addEventListener('contextmenu', (e) => {
  if (!e.isTrusted) return;
  report('rightclick', elOf(e), { button: 'right', x: e.clientX, y: e.clientY, mods: mods(e) });
}, opts);
G.addEventListener('dblclick', (e) => {
  if (!e.isTrusted) return;
  report('dblclick', elOf(e), { button: 'left', x: e.clientX, y: e.clientY, mods: mods(e) });
}, opts);
G.addEventListener('keydown', (e) => {
  if (!e.isTrusted) return;
  if (selTimer) reportSelection(); // Ctrl+C's keydown comes before its copy
  if (!CHORD.off && e.ctrlKey === CHORD.ctrl && e.altKey === CHORD.alt && e.shiftKey === CHORD.shift && e.metaKey === CHORD.meta &&
      (e.key.toLowerCase() === CHORD.key || e.code === 'Key' + CHORD.key.toUpperCase())) {
    e.preventDefault();
    e.stopImmediatePropagation();
    send({ k: 'stop' });
    return;
  }
  const key = { key: e.key, code: e.code, ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey, repeat: e.repeat };
  const printable = e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
  const el = printable ? null : (deepActive() || document.activeElement);
  report('keydown', el && el !== document.body ? el : null, { key, text: printable ? e.key : '' });
}, opts);
G.addEventListener('input', (e) => {
  if (!e.isTrusted) return;
  const el = elOf(e);
  report('input', el, { text: e.data || '', value: valueOfEl(el) });
}, opts);
G.addEventListener('change', (e) => {
  if (!e.isTrusted) return;
  const el = elOf(e);
  report('change', el, { value: valueOfEl(el) });
}, opts);
G.addEventListener('submit', (e) => {
  if (!e.isTrusted) return;
  report('submit', elOf(e), {});
}, opts);
function selectedText(el) {
  if (el && typeof el.selectionStart === 'number' && el.selectionEnd > el.selectionStart && typeof el.value === 'string') {
    return el.value.slice(el.selectionStart, el.selectionEnd);
  }
  const s = G.getSelection();
  return s ? String(s) : '';
}
for (const kind of ['copy', 'cut']) {
  G.addEventListener(kind, (e) => {
    if (selTimer) reportSelection();
    const el = deepActive() || elOf(e);
    report(kind, el, { text: selectedText(el) });
  }, opts);
}
G.addEventListener('paste', (e) => {
  const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
  report('paste', elOf(e), { text });
}, opts);
G.addEventListener('dragstart', (e) => {
  if (!e.isTrusted) return;
  report('drag_start', elOf(e), { x: e.clientX, y: e.clientY });
}, opts);
G.addEventListener('drop', (e) => {
  if (!e.isTrusted) return;
  report('drop', elOf(e), { x: e.clientX, y: e.clientY });
}, opts);
// Scrolling is reported once it rests, with the position reached: the
// page's, or a scrolled element's with that element as the target.
let scrollTimer = 0;
G.addEventListener('scroll', (e) => {
  if (!e.isTrusted) return;
  const el = e.target && e.target.nodeType === 1 ? e.target : null;
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => {
    if (el && el !== document.documentElement && el !== document.body) report('scroll', el, { x: el.scrollLeft, y: el.scrollTop });
    else if (top) report('scroll', null, { x: G.scrollX, y: G.scrollY });
  }, 300);
}, opts);
let selTimer = 0;
let lastSel = '';
// A selection is reported once it rests (400 ms), or at once when the
// person copies or cuts it: the select must come before its copy.
function reportSelection() {
  clearTimeout(selTimer);
  selTimer = 0;
  const s = G.getSelection();
  const act = deepActive();
  if (act && typeof act.selectionStart === 'number') {
    // Selection inside a field: only a non-empty range counts.
    const t = selectedText(act);
    if (t && t !== lastSel) { lastSel = t; report('select', act, { text: t }); }
    if (!t) lastSel = '';
    return;
  }
  const t = s ? String(s).trim() : '';
  if (!t) { lastSel = ''; return; }
  if (t === lastSel) return;
  lastSel = t;
  let n = s.anchorNode;
  if (n && n.nodeType !== 1) n = n.parentElement;
  report('select', n, { text: t });
}
document.addEventListener('selectionchange', () => {
  clearTimeout(selTimer);
  selTimer = setTimeout(reportSelection, 400);
});
if (top) {
  const loaded = () => send({ k: 'navigate', url: location.href, title: document.title, top });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', loaded, { once: true });
  else loaded();
}
