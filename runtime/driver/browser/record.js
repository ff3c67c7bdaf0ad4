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
  const hit = hitOf(el);
  const o = observe(null, hit);
  const refs = new Map();
  o.els.forEach((e, i) => refs.set(e.r, i));
  for (let a = hit || el; a; a = upOf(a)) {
    if (a.nodeType !== 1) continue;
    const i = refs.get(refOf(a));
    if (i === undefined) continue;
    // A part of a drawing is walked only here (Observe keeps an svg
    // whole): only its selector finds it again, and the selector's match
    // has the role a lone element has, not one from the walk around it.
    const part = a === hit && !!outerSVG(a);
    if (part) o.els[i].ro = roleOf(a, a.localName) || 'generic';
    return { snap: o, ti: i, sel: top ? cssOf(a) : '', part, form: formFacts(a) };
  }
  return { snap: o, ti: -1 };
}

// --- forms: what the compiler needs to prove that typing into a field and
// submitting equals opening one address. The prototype's getters are taken
// before any page script runs: a field named "action" shadows form.action.
const FORM = HTMLFormElement.prototype;
const formGet = (name) => Object.getOwnPropertyDescriptor(FORM, name).get;
const fAction = formGet('action');
const fMethod = formGet('method');
const fElements = formGet('elements');
const fOnsubmit = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onsubmit').get;
const formIds = new WeakMap();
const formRefs = new Map();
let formSeq = 0;
// FORM_NOT_FILLED are the input types whose value a form sends only as
// its submitter (or never): they are not "other fields with a value".
const FORM_NOT_FILLED = new Set(['submit', 'button', 'reset', 'image']);
function formOwner(el) {
  if (el instanceof HTMLFormElement) return el;
  const f = el.form;
  return f instanceof HTMLFormElement ? f : null;
}
// formFacts describes the form el submits with; id lets the recorder find
// the form again to list its submit listeners (formChain).
function formFacts(el) {
  let f;
  try { f = formOwner(el); } catch (e) { return null; }
  if (!f) return null;
  try {
    let id = formIds.get(f);
    if (!id) {
      id = ++formSeq;
      formIds.set(f, id);
      formRefs.set(id, new WeakRef(f));
    }
    let hidden = 0;
    const filled = [];
    for (const c of fElements.call(f)) {
      if (c === el) continue;
      const type = String(c.type || '').toLowerCase();
      if (c.localName === 'input' && type === 'hidden') { hidden++; continue; }
      if (!c.name || c.disabled || c.localName === 'button' || c.localName === 'fieldset' || c.localName === 'output' ||
          c.localName === 'object' || FORM_NOT_FILLED.has(type)) continue;
      let has;
      if (type === 'checkbox' || type === 'radio') has = c.checked;
      else if (type === 'file') has = !!(c.files && c.files.length);
      else has = typeof c.value === 'string' && c.value !== '';
      if (has) filled.push(c.name);
    }
    const onsubmit = f.hasAttribute('onsubmit') || typeof fOnsubmit.call(f) === 'function';
    const field = el === f ? '' : String(el.name || '');
    // The encoding the form's values are sent in: the first of its
    // accept-charset labels, else the page's.
    const accept = String(f.getAttribute('accept-charset') || '').trim().split(/[\s,]+/)[0];
    const charset = accept || document.characterSet;
    return { id, action: fAction.call(f), method: fMethod.call(f), field, hidden, filled, onsubmit, charset };
  } catch (e) {
    return null;
  }
}
// formChain is the form of id with its ancestors (through shadow hosts),
// the document and the window: where a submit listener would hear its
// submission. The recorder asks for it through the DevTools protocol.
Object.defineProperty(G, '__cogflow_rec_form', {
  value: (id) => {
    const r = formRefs.get(id);
    const f = r && r.deref();
    if (!f) return null;
    const chain = [];
    for (let a = f; a; a = upOf(a)) chain.push(a);
    chain.push(document, G);
    return chain;
  },
  enumerable: false, configurable: true,
});
function outerSVG(el) {
  let o = null;
  while (el && el.ownerSVGElement) el = o = el.ownerSVGElement;
  return o;
}
// ICON_MAX is the largest side, in CSS pixels, of an svg taken for an
// icon: a larger one is a drawing whose parts a person tells apart.
const ICON_MAX = 64;
function iconSized(svg) {
  const r = svg.getBoundingClientRect();
  return r.width <= ICON_MAX && r.height <= ICON_MAX;
}
function upOf(a) { return a.parentElement || (a.getRootNode && a.getRootNode().host) || null; }
// hitOf is the element a click is recorded against: the control around
// the element hit (a button's icon is the button), else the element hit
// itself, however little it shows (an icon span, an svg: a fragment of an
// icon-sized svg is its outermost svg, while in a drawing the shape or
// text hit is what the person aimed at); null for the page's own
// background.
function hitOf(el) {
  const outer = outerSVG(el);
  if (outer && iconSized(outer)) el = outer;
  if (!el || el === document.body || el === document.documentElement) return null;
  for (let a = el; a && a !== document.body; a = upOf(a)) {
    if (a.nodeType !== 1) continue;
    const tag = a.localName;
    if (tag === 'label' || INTERACTIVE.has(roleOf(a, tag))) return a;
  }
  return el;
}

// --- selectors: a CSS selector that matches the element and nothing else,
// evaluated as the runtime's css: attribute is (piercing shadow roots, a
// " >>> " step into the shadow root of what matched so far).
function shadowOf(n) { return n.shadowRoot || S.closedRoots.get(n) || null; }
function deepAll(root, sel, out) {
  let found;
  try { found = root.querySelectorAll(sel); } catch (e) { return out; }
  for (const n of found) out.push(n);
  for (const n of root.querySelectorAll('*')) { const r = shadowOf(n); if (r) deepAll(r, sel, out); }
  return out;
}
function chainMatches(chain) {
  const segs = chain.split(' >>> ');
  let cur = deepAll(document, segs[0], []);
  for (let i = 1; i < segs.length && cur.length; i++) {
    const next = [];
    for (const m of cur) { const r = shadowOf(m); if (r) deepAll(r, segs[i], next); }
    cur = Array.from(new Set(next));
  }
  return cur;
}
function uniqueFor(el, chain) {
  const m = chainMatches(chain);
  return m.length === 1 && m[0] === el;
}
function cssStr(v) { return '"' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ') + '"'; }
const SEL_ATTRS = ['data-testid', 'data-test', 'data-qa', 'name', 'aria-label', 'title', 'placeholder', 'alt', 'role', 'type'];
// classesOf are the classes worth naming: not generated-looking ones.
function classesOf(el) {
  return classSet(el).filter((c) => /^[A-Za-z_-][\w-]*$/.test(c) && !/\d{3,}/.test(c) && c.length < 40).slice(0, 3);
}
function localOf(el) {
  const cls = classesOf(el);
  return el.localName + cls.map((c) => '.' + CSS.escape(c)).join('');
}
function nthOf(el) {
  const p = el.parentNode;
  if (!p) return '';
  let n = 0;
  let same = 0;
  for (let c = p.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName !== el.localName) continue;
    same++;
    if (c === el) n = same;
  }
  return same > 1 ? ':nth-of-type(' + n + ')' : '';
}
// cssOf builds the element's selector: its id, a telling attribute or its
// classes when one of them is unique, else a child path up to an ancestor
// that makes it unique; inside a shadow root, its host's selector first.
function cssOf(el) {
  try {
    const root = el.getRootNode();
    const prefix = root && root.host ? cssOf(root.host) : '';
    if (root && root.host && !prefix) return '';
    const pre = prefix ? prefix + ' >>> ' : '';
    const tag = el.localName;
    const tries = [];
    if (el.id) tries.push('#' + CSS.escape(el.id));
    for (const a of SEL_ATTRS) {
      const v = el.getAttribute(a);
      if (v && v.length < 80) tries.push(tag + '[' + a + '=' + cssStr(v) + ']');
    }
    tries.push(localOf(el));
    // An icon is often told apart only by an aria state or property.
    for (const a of el.attributes) {
      if (a.name.startsWith('aria-') && a.name !== 'aria-hidden' && a.value && a.value.length < 40) {
        tries.push(localOf(el) + '[' + a.name + '=' + cssStr(a.value) + ']');
      }
    }
    for (const t of tries) if (uniqueFor(el, pre + t)) return pre + t;
    let sel = localOf(el) + nthOf(el);
    if (uniqueFor(el, pre + sel)) return pre + sel;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const head = a.id ? '#' + CSS.escape(a.id) : localOf(a) + nthOf(a);
      sel = head + ' > ' + sel;
      if (uniqueFor(el, pre + sel)) return pre + sel;
    }
    return '';
  } catch (e) {
    return '';
  }
}

// --- secrets: a password field's value never leaves the page in clear.
function isSecret(el) { return secretField(el); }
function masked(s) { return '•'.repeat(Array.from(String(s || '')).length); }
function elOf(e) {
  let t = e.composedPath ? e.composedPath()[0] : e.target;
  if (t && t.nodeType !== 1) t = t.parentElement;
  return t;
}
function mods(e) { return { ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey }; }
// report sends one event; at, when given, is the target as taken at the
// button press (pressedFor).
function report(kind, el, extra, at) {
  const m = Object.assign({ k: kind, url: location.href, title: top ? document.title : '', top }, extra || {});
  if (at) el = at.el;
  if (isSecret(el)) {
    m.secret = true;
    if (m.text) m.text = masked(m.text);
    if (m.value) m.value = masked(m.value);
  }
  if (at) Object.assign(m, at.w);
  else if (el) Object.assign(m, walkedTarget(el));
  send(m);
}
function valueOfEl(el) {
  if (!el) return '';
  if ('value' in el && typeof el.value === 'string') return el.value;
  if (el.isContentEditable) return el.innerText;
  return '';
}
const opts = { capture: true };
// pressed is the element a button press hit, walked before the page's own
// handlers run: a handler may remove or replace it, or cover it (a focus
// handler that ends a task shows a cover), and the click then lands on
// an ancestor the press and the release share, not on what the person
// aimed at.
let pressed = null;
G.addEventListener('pointerdown', (e) => {
  pressed = null;
  if (!e.isTrusted) return;
  const el = elOf(e);
  if (!el) return;
  const anc = [];
  for (let a = upOf(el); a; a = upOf(a)) anc.push(a);
  pressed = { el, anc, button: e.button, w: walkedTarget(el) };
}, opts);
// A press whose element the page removed or replaced before the release
// gets no click event: the release reports it, unless a click comes in
// the same task after all.
G.addEventListener('pointerup', (e) => {
  const p = pressed;
  if (!e.isTrusted || !p || p.button !== e.button || p.el.isConnected || (e.button !== 0 && e.button !== 1)) return;
  const extra = { button: e.button === 0 ? 'left' : 'middle', x: e.clientX, y: e.clientY, mods: mods(e), detail: 1 };
  setTimeout(() => {
    if (pressed !== p) return;
    pressed = null;
    report(e.button === 0 ? 'click' : 'middleclick', p.el, extra, p);
  }, 0);
}, opts);
// pressedFor is the press a click of that button completes when the click
// landed on the element pressed or on one of its ancestors then.
function pressedFor(e) {
  const p = pressed;
  pressed = null;
  const el = elOf(e);
  if (!p || p.button !== e.button || !el || e.detail === 0) return null; // a key's click has no press
  return el === p.el || p.anc.includes(el) ? p : null;
}
G.addEventListener('click', (e) => {
  if (e.button !== 0 || !e.isTrusted) return;
  report('click', elOf(e), { button: 'left', x: e.clientX, y: e.clientY, mods: mods(e), detail: e.detail }, pressedFor(e));
}, opts);
G.addEventListener('auxclick', (e) => {
  if (e.button !== 1 || !e.isTrusted) return;
  report('middleclick', elOf(e), { button: 'middle', x: e.clientX, y: e.clientY, mods: mods(e) }, pressedFor(e));
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
  const act = deepActive() || document.activeElement;
  if (printable && isSecret(act)) {
    // The key of a password field is as secret as its value.
    key.key = '•';
    key.code = '';
    send({ k: 'keydown', url: location.href, title: top ? document.title : '', top, key, text: '•', secret: true });
    return;
  }
  const el = printable ? null : act;
  report('keydown', el && el !== document.body ? el : null, { key, text: printable ? e.key : '' });
}, opts);
function isFileInput(el) { return !!el && el.localName === 'input' && el.type === 'file'; }
G.addEventListener('input', (e) => {
  if (!e.isTrusted) return;
  const el = elOf(e);
  if (isFileInput(el)) return; // its change is the upload
  report('input', el, { text: e.data || '', value: valueOfEl(el) });
}, opts);
G.addEventListener('change', (e) => {
  if (!e.isTrusted) return;
  const el = elOf(e);
  if (isFileInput(el)) {
    // The page sees names, not paths ("C:\\fakepath\\…" in value).
    report('upload', el, { files: Array.from(el.files || []).map((f) => f.name) });
    return;
  }
  report('change', el, { value: valueOfEl(el) });
}, opts);
// The recorder's own submit listener is marked, so that the check for a
// page script handling a form's submission passes over it.
const onSubmit = (e) => {
  if (!e.isTrusted) return;
  report('submit', elOf(e), {});
};
Object.defineProperty(onSubmit, '__cogflowOwn', { value: true });
G.addEventListener('submit', onSubmit, opts);
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
