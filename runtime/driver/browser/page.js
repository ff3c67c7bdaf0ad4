// page.js — the last part of cogflow's in-page script: what actions need in
// the page (locate + hit test, focus and select, set a value, clipboard
// events, text selection, waits) and run(), the one entry the driver calls
// with a batch of operations per round trip.
function describe(el) {
  if (!el) return 'nothing (the point is outside the page)';
  let s = el.localName;
  if (el.id) s += '#' + el.id;
  const c = norm(el.getAttribute && el.getAttribute('class'));
  if (c) s += '.' + c.split(' ').join('.');
  const t = cap(textOf(el)).slice(0, 40);
  return t ? s + ' "' + t + '"' : s;
}
// resolve finds a target: by ref while its node lives, else by id, path or
// a unique role+name (the element was re-rendered).
function resolve(t) {
  if (!t) return null;
  let el = t.r ? byRef(t.r) : null;
  if (el) return el;
  const st = newState('find', null);
  walkDoc(st);
  let best = null;
  let n = 0;
  for (const r of st.out) {
    if (t.i && r.i === t.i) return byRef(r.r);
    if (t.p && r.p === t.p && (!t.ro || r.ro === t.ro)) return byRef(r.r);
  }
  for (const r of st.out) {
    if (!t.ro || r.ro !== t.ro) continue;
    if ((t.n && r.n === t.n) || (!t.n && t.t && r.t === t.t)) { best = r; n++; }
  }
  return n === 1 ? byRef(best.r) : null;
}
function gone(t) {
  return { err: 'the element ' + (t.ro || '') + (t.n ? ' "' + t.n + '"' : '') + ' (' + (t.r || t.p || '?') + ') is no longer on the page' };
}
function frameOffset(el) {
  let x = 0;
  let y = 0;
  let win = el.ownerDocument.defaultView;
  while (win && win !== G && win.frameElement) {
    const fe = win.frameElement;
    const r = fe.getBoundingClientRect();
    const cs = getComputedStyle(fe);
    x += r.left + fe.clientLeft + parseFloat(cs.paddingLeft || '0');
    y += r.top + fe.clientTop + parseFloat(cs.paddingTop || '0');
    win = fe.ownerDocument.defaultView;
  }
  return [x, y];
}
function deepHit(x, y) {
  let el = document.elementFromPoint(x, y);
  let ox = 0;
  let oy = 0;
  for (let i = 0; el && i < 32; i++) {
    const root = el.shadowRoot || S.closedRoots.get(el);
    if (root) {
      const inner = root.elementFromPoint(x - ox, y - oy);
      if (inner && inner !== el) { el = inner; continue; }
    }
    if (el.localName === 'iframe' || el.localName === 'frame') {
      let d = null;
      try { d = el.contentDocument; } catch (e) { d = null; }
      if (d) {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        ox += r.left + el.clientLeft + parseFloat(cs.paddingLeft || '0');
        oy += r.top + el.clientTop + parseFloat(cs.paddingTop || '0');
        const inner = d.elementFromPoint(x - ox, y - oy);
        if (inner) { el = inner; continue; }
      }
    }
    break;
  }
  return el;
}
function within(target, hit) {
  for (let n = hit; n; ) {
    if (n === target) return true;
    const p = n.parentNode;
    n = p && p.nodeType === 11 ? p.host : p;
  }
  const label = hit && hit.closest && hit.closest('label');
  return !!label && label.control === target;
}
function inView(el, r) {
  const win = el.ownerDocument.defaultView;
  return r.top >= 0 && r.left >= 0 && r.bottom <= win.innerHeight && r.right <= win.innerWidth;
}
// point scrolls el into view and returns the viewport point to aim at,
// checking that a click there reaches el.
function point(el, t) {
  if (!el) return gone(t);
  let r = el.getBoundingClientRect();
  if (!inView(el, r)) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    r = el.getBoundingClientRect();
  }
  const rs = el.getClientRects();
  const box = rs.length ? rs[0] : r;
  if (!box || box.width === 0 || box.height === 0 || (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true }))) {
    return { err: 'the element ' + describe(el) + ' is not visible' };
  }
  const win = el.ownerDocument.defaultView;
  const cx = Math.min(Math.max(box.left + box.width / 2, 1), win.innerWidth - 1);
  const cy = Math.min(Math.max(box.top + box.height / 2, 1), win.innerHeight - 1);
  const [ox, oy] = frameOffset(el);
  const x = cx + ox;
  const y = cy + oy;
  const hit = deepHit(x, y);
  if (!hit || !within(el, hit)) {
    // Another element lies over the middle (buttons drawn over one
    // another): aim at a part of el that a click does reach, checked like
    // the middle, before calling it covered.
    const p = uncovered(el, box, ox, oy, win);
    if (p) return { x: p[0], y: p[1], w: box.width, h: box.height };
    return { err: 'the element ' + describe(el) + ' is covered by ' + describe(hit) + ' at (' + Math.round(x) + ',' + Math.round(y) + ')', covered: true };
  }
  return { x, y, w: box.width, h: box.height };
}
// uncovered returns a viewport point inside box, away from its edges, at
// which a click reaches el, or null when every point tried is covered.
function uncovered(el, box, ox, oy, win) {
  const fr = [0.5, 0.25, 0.75, 0.1, 0.9];
  for (const fy of fr) {
    for (const fx of fr) {
      const cx = box.left + box.width * fx, cy = box.top + box.height * fy;
      if (cx < 1 || cy < 1 || cx > win.innerWidth - 1 || cy > win.innerHeight - 1) continue;
      const hit = deepHit(cx + ox, cy + oy);
      if (hit && within(el, hit)) return [cx + ox, cy + oy];
    }
  }
  return null;
}
function isField(el) { return el.localName === 'input' || el.localName === 'textarea'; }
function editable(el) { return el.isContentEditable || (isTextInput(el, el.localName) && !el.readOnly && !el.disabled); }
function focusEl(el) {
  if (deepActive() === el) return true;
  el.focus({ preventScroll: false });
  const a = deepActive();
  return a === el || (el.isContentEditable && el.contains(a));
}
function selectAll(el) {
  if (isField(el)) { try { el.select(); } catch (e) { /* not selectable */ } return; }
  const sel = el.ownerDocument.getSelection();
  const rg = el.ownerDocument.createRange();
  rg.selectNodeContents(el);
  sel.removeAllRanges();
  sel.addRange(rg);
}
function caretEnd(el) {
  if (isField(el)) { try { const n = el.value.length; el.setSelectionRange(n, n); } catch (e) { /* no caret */ } return; }
  const sel = el.ownerDocument.getSelection();
  const rg = el.ownerDocument.createRange();
  rg.selectNodeContents(el);
  rg.collapse(false);
  sel.removeAllRanges();
  sel.addRange(rg);
}
function fire(el, type) { el.dispatchEvent(new Event(type, { bubbles: true, composed: type === 'input' })); }
// setValue is type's API-first path for controls that take no typing: a
// <select> (the option whose text or value matches) and date, color, range…
function setValue(el, text) {
  if (el.localName === 'select') {
    const want = norm(text).toLowerCase();
    const opts = Array.from(el.options);
    const o = opts.find((x) => norm(x.textContent) === norm(text) || x.value === text) ||
      opts.find((x) => norm(x.textContent).toLowerCase() === want || x.value.toLowerCase() === want) ||
      opts.find((x) => norm(x.textContent).toLowerCase().includes(want));
    if (!o) return { err: 'the list ' + describe(el) + ' has no option "' + text + '"' };
    if (el.multiple) for (const x of opts) x.selected = x === o; else el.value = o.value;
    fire(el, 'input');
    fire(el, 'change');
    return { text: norm(o.textContent) };
  }
  const proto = Object.getPrototypeOf(el);
  const desc = Object.getOwnPropertyDescriptor(proto, 'value');
  if (desc && desc.set) desc.set.call(el, text); else el.value = text;
  // The browser sanitizes what it cannot hold (a date not in yyyy-mm-dd,
  // a range value out of bounds): that value did not take.
  if (el.localName === 'input' && !sameValue(el, el.value, String(text))) {
    return { err: 'the field ' + describe(el) + ' holds ' + shown(el, el.value) + ' after setting ' + shown(el, String(text)) + notTaken(el) };
  }
  fire(el, 'input');
  fire(el, 'change');
  return { text };
}
// VALUE_TYPES are the inputs a person sets with a picker, not by typing:
// their value is set and input and change fired, as the picker does.
const VALUE_TYPES = new Set(['color', 'date', 'time', 'range', 'datetime-local', 'month', 'week']);
// sameValue tells whether a field holds what was typed or set, up to what
// the field itself normalizes: line breaks an <input> drops, surrounding
// spaces of an email or url, the case of a color, the spelling of a number.
function sameValue(el, got, want) {
  if (got === want) return true;
  if (el.localName !== 'input') return false;
  const t = el.type;
  if (t === 'color') return got.toLowerCase() === want.toLowerCase();
  if (t === 'range' || t === 'number') return want.trim() !== '' && Number(got) === Number(want);
  return got === want.replace(/[\r\n]/g, '') || got.trim() === want.replace(/[\r\n]/g, '').trim();
}
// shown quotes a field's value for a message; a password field's value is
// never shown, only its length.
function shown(el, v) {
  if (secretField(el)) return '•'.repeat(Math.min(v.length, 64)) + ' (' + v.length + ' characters, masked)';
  return JSON.stringify(v.length > 200 ? v.slice(0, 200) + '…' : v);
}
// notTaken names the field's own reason a value may not have taken.
function notTaken(el) {
  const why = [];
  if (el.maxLength > 0) why.push('maxlength ' + el.maxLength);
  if (el.readOnly) why.push('read-only');
  // A page that shows a popup when the field gets focus may disable the
  // field under it (MiniWoB's login-user-popup): the keys went nowhere.
  if (el.disabled) why.push('the field is disabled now: something that showed when it got focus, such as a popup, may have to be closed first');
  if (el.localName === 'input' && (el.min || el.max)) why.push('range ' + (el.min || '…') + ' to ' + (el.max || '…'));
  if (el.localName === 'input' && VALUE_TYPES.has(el.type) && el.type !== 'range' && el.type !== 'color') why.push('a ' + el.type + ' input takes only its own format');
  return why.length ? ' (' + why.join(', ') + ')' : ' (the page changed it)';
}
// fileInput finds the <input type=file> an upload aims at: the target, the
// control of a label, or the one file input the target holds.
function fileInput(a) {
  let el = resolve(a.t);
  if (!el) return gone(a.t);
  const isFile = (x) => !!x && x.localName === 'input' && x.type === 'file';
  if (!isFile(el)) {
    let c = el.localName === 'label' ? el.control : null;
    if (!isFile(c)) {
      const inner = el.querySelectorAll ? el.querySelectorAll('input[type=file]') : [];
      c = inner.length === 1 ? inner[0] : null;
    }
    if (!isFile(c)) return { err: 'the element ' + describe(el) + ' is not a file input (<input type=file>)' };
    el = c;
  }
  if (el.disabled) return { err: 'the file input ' + describe(el) + ' is disabled' };
  if (a.n > 1 && !el.multiple) return { err: 'the file input ' + describe(el) + ' takes one file, not ' + a.n };
  return { r: refOf(el) };
}
// readBack fails a type whose text did not take: the field holds something
// else once the page's input handlers (which run as the text is inserted)
// have run. No frame is awaited: that would cost every type step a frame.
function readBack(a) {
  const el = resolve(a.t);
  if (!el) return gone(a.t);
  let got;
  if (isField(el)) got = el.value;
  else if (el.isContentEditable) { got = norm(el.innerText); if (got === norm(a.text)) return {}; }
  else return {};
  if (sameValue(el, got, a.text)) return {};
  return { err: 'the field ' + describe(el) + ' holds ' + shown(el, got) + ' after typing ' + shown(el, a.text) + notTaken(el) };
}
// prepType focuses the field and selects its content so that the driver's
// Input.insertText replaces it; controls that take no typing get their value.
function prepType(el, t, text) {
  if (!el) return gone(t);
  if (el.localName === 'option' && el.parentElement) el = el.closest('select') || el;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (el.localName === 'select' || (el.localName === 'input' && (VALUE_TYPES.has(el.type) || (!TEXT_TYPES.has(type) && !INPUT_ROLES[type])))) {
    if (el.disabled || el.readOnly) return { err: 'the element ' + describe(el) + ' is not editable (' + (el.disabled ? 'disabled' : 'read-only') + ')' };
    return setValue(el, text);
  }
  if (!editable(el)) return { err: 'the element ' + describe(el) + ' is not editable' + (el.readOnly ? ' (read-only)' : el.disabled ? ' (disabled)' : '') };
  if (!focusEl(el)) return { err: 'the element ' + describe(el) + ' does not take the focus' };
  selectAll(el);
  if (text === '') {
    el.ownerDocument.execCommand('delete');
    return { text: '', deleted: true };
  }
  return { insert: true };
}
function prepFocus(el, t, caret) {
  if (!el) return gone(t);
  const had = deepActive() === el;
  if (!focusEl(el)) return { err: 'the element ' + describe(el) + ' does not take the focus' };
  if (caret && !had) caretEnd(el);
  return {};
}

// --- clipboard: page handlers see real ClipboardEvents; the clipboard
// itself is the driver's buffer (headless has no system clipboard).
function selectionSource() {
  const a = deepActive();
  if (a && isField(a)) {
    let s = '';
    try { s = a.value.substring(a.selectionStart, a.selectionEnd); } catch (e) { s = ''; }
    return { el: a, text: s, editable: editable(a) };
  }
  const sel = (a && a.ownerDocument ? a.ownerDocument : document).getSelection();
  const node = sel && sel.anchorNode;
  const el = node ? (node.nodeType === 1 ? node : node.parentElement) : null;
  return { el: el || a || document.body, text: sel ? sel.toString() : '', editable: !!(el && el.isContentEditable) };
}
function clipEvent(el, kind, text) {
  const dt = new DataTransfer();
  if (text !== undefined) dt.setData('text/plain', text);
  const e = new ClipboardEvent(kind, { bubbles: true, cancelable: true, composed: true, clipboardData: dt });
  el.dispatchEvent(e);
  return { prevented: e.defaultPrevented, data: dt.getData('text/plain') };
}
function copyCut(a) {
  let src;
  if (a.t) {
    const el = resolve(a.t);
    if (!el) return gone(a.t);
    src = isField(el) || el.localName === 'select'
      ? { el, text: el.localName === 'select' ? norm(el.selectedOptions[0] ? el.selectedOptions[0].textContent : '') : el.value, editable: editable(el), whole: true }
      : { el, text: (el.innerText || el.textContent || '').trim(), editable: el.isContentEditable, whole: true };
  } else {
    src = selectionSource();
  }
  // A copy out of a field a secret was typed into is a secret too.
  const secret = !!(S.secret && src.el && S.secret.has(src.el));
  const ev = clipEvent(src.el, a.op);
  if (ev.prevented) return { text: ev.data, secret };
  if (a.op === 'cut' && src.editable && src.text !== '') {
    if (src.whole) { focusEl(src.el); selectAll(src.el); }
    src.el.ownerDocument.execCommand('delete');
  }
  return { text: src.text, secret };
}
function paste(a) {
  const el = a.t ? resolve(a.t) : deepActive();
  if (!el) return gone(a.t);
  if (a.t) { const f = prepFocus(el, a.t, true); if (f.err) return f; }
  const ev = clipEvent(el, 'paste', a.text);
  return { text: a.text, insert: !ev.prevented && editable(el) };
}

// --- text selection -----------------------------------------------------------
// textMap lists the visible text of root with whitespace collapsed and, for
// each character, the text node and offset it comes from.
function textMap(root) {
  const chars = [];
  const at = [];
  const walkText = (n) => {
    if (n.nodeType === 3) {
      const p = n.parentElement;
      if (p && p.checkVisibility && !p.checkVisibility({ visibilityProperty: true })) return;
      const d = n.data;
      for (let i = 0; i < d.length; i++) {
        const sp = /\s/.test(d[i]);
        if (sp && (chars.length === 0 || chars[chars.length - 1] === ' ')) continue;
        chars.push(sp ? ' ' : d[i]);
        at.push([n, i]);
      }
      return;
    }
    if (n.nodeType !== 1 && n.nodeType !== 11) return;
    if (n.nodeType === 1 && SKIP.has(n.localName)) return;
    for (let c = n.firstChild; c; c = c.nextSibling) walkText(c);
  };
  walkText(root);
  return { s: chars.join(''), at };
}
function findRange(root, text) {
  const m = textMap(root);
  const want = norm(text);
  let i = m.s.indexOf(want);
  if (i < 0) i = m.s.toLowerCase().indexOf(want.toLowerCase());
  if (i < 0 || !want) return null;
  const [sn, so] = m.at[i];
  const [en, eo] = m.at[i + want.length - 1];
  const rg = root.ownerDocument ? root.ownerDocument.createRange() : document.createRange();
  rg.setStart(sn, so);
  rg.setEnd(en, eo + 1);
  return rg;
}
function roots(el, out) {
  out.push(el);
  for (const n of el.querySelectorAll('*')) {
    const r = n.shadowRoot || S.closedRoots.get(n);
    if (r) roots(r, out);
    if (n.localName === 'iframe') { let d = null; try { d = n.contentDocument; } catch (e) { d = null; } if (d && d.body) roots(d.body, out); }
  }
  return out;
}
function selectText(a) {
  let scope = document.body;
  if (a.t) {
    scope = resolve(a.t);
    if (!scope) return gone(a.t);
    if (!a.text) {
      if (isField(scope)) { focusEl(scope); selectAll(scope); return { text: scope.value }; }
      selectAll(scope);
      return { text: scope.ownerDocument.getSelection().toString() };
    }
  }
  for (const root of roots(scope, [])) {
    const rg = findRange(root, a.text);
    if (!rg) continue;
    const sel = rg.startContainer.ownerDocument.getSelection();
    sel.removeAllRanges();
    sel.addRange(rg);
    const el = rg.startContainer.parentElement;
    if (el && !inView(el, el.getBoundingClientRect())) el.scrollIntoView({ block: 'center', behavior: 'instant' });
    return { text: rg.toString() };
  }
  for (const f of scope.querySelectorAll('input,textarea')) {
    const i = f.value.toLowerCase().indexOf(String(a.text).toLowerCase());
    if (i < 0) continue;
    focusEl(f);
    f.setSelectionRange(i, i + a.text.length);
    return { text: f.value.substr(i, a.text.length) };
  }
  return { err: 'the text "' + a.text + '" is not on the page' };
}

// --- waits -----------------------------------------------------------------------
// waitFor resolves when the element (every given attribute matches, and it
// is visible) or the text is on the page. It checks again on each change
// the instrumentation sees (mutations, loads), at most once a frame.
async function waitFor(a) {
  const deadline = now() + (a.ms || 10000);
  const q = a.q ? lower(a.q) : null;
  const needle = a.text ? norm(a.text).toLowerCase() : '';
  const check = () => {
    if (q) {
      const el = a.q.r ? byRef(a.q.r) : null;
      if (el && el.checkVisibility && el.checkVisibility({ visibilityProperty: true })) return true;
      const st = newState('find', null);
      walkDoc(st);
      return st.out.some((r) => (r.f & 1) && allMatch(r, q));
    }
    return pageText().toLowerCase().includes(needle);
  };
  for (;;) {
    if (check()) return { ok: true };
    const left = deadline - now();
    if (left <= 0) return { err: 'timed out waiting for ' + (q ? 'the element' : 'the text "' + a.text + '"'), timeout: true };
    await nextChange(left);
    await frame();
  }
}
// scrolled resolves when the scroll a wheel event started has ended, or
// after two frames without any scroll.
function scrolled(a) {
  return new Promise((resolve) => {
    let seen = false;
    let t = 0;
    const onScroll = () => { seen = true; };
    const done = () => {
      origClearTimeout(t);
      G.removeEventListener('scroll', onScroll, true);
      G.removeEventListener('scrollend', done, true);
      resolve({ x: G.scrollX, y: G.scrollY });
    };
    G.addEventListener('scroll', onScroll, true);
    G.addEventListener('scrollend', done, true);
    origRAF(() => origRAF(() => { if (!seen) done(); }));
    t = origTimeout(done, Math.min(a.ms || 1000, 1000));
  });
}
function scrollInfo(a) {
  if (!a.t) return { x: G.innerWidth / 2, y: G.innerHeight / 2, w: G.innerWidth, h: G.innerHeight };
  const el = resolve(a.t);
  const p = point(el, a.t);
  if (p.err && !p.covered) return p;
  const [ox, oy] = el ? frameOffset(el) : [0, 0];
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2 + ox, y: r.top + r.height / 2 + oy, w: el.clientWidth || r.width, h: el.clientHeight || r.height };
}
// origin scrolls a cross-origin iframe into view and returns where a point
// of its content is in this window, checking the iframe is what is there.
function origin(a) {
  const el = byRef(a.r);
  if (!el) return { err: 'the frame ' + a.r + ' is no longer on the page' };
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  const [ox, oy] = frameOffset(el);
  const x = ox + r.left + el.clientLeft + parseFloat(cs.paddingLeft || '0') + a.x;
  const y = oy + r.top + el.clientTop + parseFloat(cs.paddingTop || '0') + a.y;
  if (a.hit) {
    const hit = deepHit(x, y);
    if (hit !== el) return { err: 'the frame ' + describe(el) + ' is covered by ' + describe(hit), covered: true };
  }
  return { x, y };
}

const OPS = {
  observe, find, pageText: () => ({ text: pageText() }), stable, wait: waitFor, scrolled, scrollInfo, origin, paste,
  copy: copyCut, cut: copyCut, select: selectText,
  point: (a) => point(resolve(a.t), a.t),
  type: (a) => prepType(resolve(a.t), a.t, a.text),
  focus: (a) => prepFocus(resolve(a.t), a.t, a.caret),
  readBack,
  fileInput,
  change: (a) => { const el = a.t ? resolve(a.t) : deepActive(); if (el) fire(el, 'change'); return {}; },
  setValue: (a) => { const el = resolve(a.t); return el ? setValue(el, a.text) : gone(a.t); },
  toggle: (a) => {
    const el = resolve(a.t);
    if (!el) return gone(a.t);
    el.selected = !el.selected;
    const sel = el.closest('select');
    if (sel) { fire(sel, 'input'); fire(sel, 'change'); }
    return {};
  },
  isOption: (a) => { const el = resolve(a.t); return { option: !!el && el.localName === 'option' && !!el.closest('select') }; },
  mark: () => { flush(); return { mark: S.mut }; },
  node: (a) => byRef(a.r),
  // secretField remembers a field a secret is typed into: screenshots
  // cover it while it is on the page, whatever the page makes of its value.
  secretField: (a) => { const el = resolve(a.t); if (!el) return gone(a.t); (S.secret || (S.secret = new Set())).add(el); return {}; },
};
// run performs a batch of operations in order and returns the last result
// as JSON, stopping at the first error.
async function run(batch) {
  let res = {};
  for (const a of batch) {
    const f = OPS[a.op];
    if (!f) return JSON.stringify({ err: 'unknown operation ' + a.op });
    res = await f(a);
    if (res && res.err) break;
  }
  if (res === undefined || res === null) res = {};
  if (typeof res === 'object' && !res.err && res.mark === undefined) { flush(); res.mark = S.mut; }
  return JSON.stringify(res);
}
Object.defineProperty(G, '__cogflow_v1', { value: { run, S, node: (r) => byRef(r) }, enumerable: false, configurable: true });
