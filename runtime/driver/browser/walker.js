// walker.js — the second part of cogflow's in-page script. It walks the
// DOM of a document (open and closed shadow roots through slots, same-origin
// iframes inline) in one pass and returns normalized elements: role,
// accessible name, text, context, bounds, state, list membership by the
// Deepest Iterative Ancestor and table cell headers. Refs are stable while a
// node lives: a WeakMap tags each node once.
const CAP = 200;
const W = { seq: 0, token: Math.random().toString(36).slice(2, 6), nodes: new Map(), refs: new WeakMap() };
const fin = G.FinalizationRegistry ? new G.FinalizationRegistry((k) => W.nodes.delete(k)) : null;
function refOf(el) {
  let r = W.refs.get(el);
  if (!r) {
    r = 'e' + (++W.seq) + '-' + W.token;
    W.refs.set(el, r);
    W.nodes.set(r, new WeakRef(el));
    if (fin) fin.register(el, r);
  }
  return r;
}
function byRef(r) {
  const w = W.nodes.get(r);
  const el = w && w.deref();
  return el && el.isConnected ? el : null;
}
function norm(s) { return s ? String(s).replace(/\s+/g, ' ').trim() : ''; }
function cap(s) { s = norm(s); return s.length > CAP ? s.slice(0, CAP) : s; }
// textOf is a node's text content without what a person never sees as
// text: the source of inline scripts and styles (textContent has it).
function textOf(n) {
  if (!n) return '';
  if (n.nodeType === 3) return n.data;
  if (!n.querySelector || !n.querySelector('script,style,template,noscript')) return n.textContent || '';
  let s = '';
  for (let c = n.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) s += c.data;
    else if (c.nodeType === 1 && !SKIP.has(c.localName)) s += textOf(c);
  }
  return s;
}

const SKIP = new Set(['script', 'style', 'template', 'noscript', 'meta', 'link', 'head', 'title', 'base', 'param', 'source', 'track']);
const LEAF = new Set(['svg', 'math', 'canvas', 'video', 'audio', 'object', 'embed', 'select']);
const TAG_ROLES = {
  button: 'button', textarea: 'textbox', option: 'option', optgroup: 'group', table: 'table', tr: 'row', td: 'cell', th: 'cell',
  li: 'listitem', ul: 'list', ol: 'list', menu: 'list', dialog: 'dialog', h1: 'heading', h2: 'heading', h3: 'heading',
  h4: 'heading', h5: 'heading', h6: 'heading', img: 'image', nav: 'navigation', main: 'main', header: 'banner',
  footer: 'contentinfo', aside: 'complementary', form: 'form', article: 'article', fieldset: 'group', details: 'group',
  summary: 'button', progress: 'progressbar', meter: 'meter', output: 'status', iframe: 'iframe', frame: 'iframe',
  hr: 'separator', thead: 'rowgroup', tbody: 'rowgroup', tfoot: 'rowgroup',
};
const INPUT_ROLES = {
  button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button', color: 'button',
  checkbox: 'checkbox', radio: 'radio', range: 'slider',
};
const ARIA_ALIASES = { img: 'image', gridcell: 'cell', columnheader: 'cell', rowheader: 'cell', searchbox: 'textbox', presentation: '', none: '', generic: '' };
const FROM_CONTENT = new Set(['button', 'link', 'heading', 'cell', 'option', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'treeitem', 'checkbox', 'radio', 'switch', 'tooltip', 'row']);
const INTERACTIVE = new Set(['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider',
  'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
const TEXT_TYPES = new Set(['', 'text', 'email', 'search', 'tel', 'url', 'password', 'number']);
const NOT_ITEMS = new Set(['td', 'th', 'thead', 'tbody', 'tfoot', 'html', 'body', 'head', 'br', 'wbr', 'span', 'b', 'i',
  'em', 'strong', 'small', 'label', 'sup', 'sub', 'code', 'mark', 'abbr', 'time', 'u', 's', 'input', 'slot']);
const ITEM_TAGS = new Set(['li', 'tr', 'option', 'dt', 'dd', 'article']);

function roleOf(el, tag) {
  const explicit = el.getAttribute('role');
  if (explicit) {
    const r = explicit.trim().split(/\s+/)[0].toLowerCase();
    return r in ARIA_ALIASES ? ARIA_ALIASES[r] : r;
  }
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : '';
  if (tag === 'input') {
    const t = (el.getAttribute('type') || '').toLowerCase();
    if (t === 'hidden') return '';
    return INPUT_ROLES[t] || 'textbox';
  }
  if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
  if (tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
  return TAG_ROLES[tag] || '';
}
function isTextInput(el, tag) {
  return tag === 'textarea' || (tag === 'input' && TEXT_TYPES.has((el.getAttribute('type') || '').toLowerCase()));
}
function idsText(el, attr) {
  const v = el.getAttribute(attr);
  if (!v) return '';
  const root = el.getRootNode();
  const out = [];
  for (const id of v.split(/\s+/)) {
    const n = id && root.getElementById ? root.getElementById(id) : null;
    if (n) out.push(n.getAttribute('aria-label') || textOf(n));
  }
  return cap(out.join(' '));
}
function labelText(label) {
  const c = label.cloneNode(true);
  for (const n of c.querySelectorAll('input,select,textarea,button')) n.remove();
  return cap(textOf(c));
}
function labelOf(el) {
  const ls = el.labels;
  return ls && ls.length ? labelText(ls[0]) : '';
}
// besideText is the text a form lays out next to a field that has no
// <label>: a short text just before it ("Genre:" <input>), or just after
// it when nothing precedes it (<input> "Genre"), climbing out of a wrapper
// that holds only the field (<div>Genre</div><div><input></div>). Many
// pages label fields this way; without it such a field has no words a
// description can give.
const BESIDE_MAX = 40;
function besideText(el) {
  let n = el;
  for (let depth = 0; depth < 3 && n && n !== document.body; depth++) {
    const before = n.previousElementSibling;
    const after = n.nextElementSibling;
    const t = before ? shortText(before) : after ? shortText(after) : '';
    if (t) return t;
    if (before || after) return '';
    n = n.parentElement;
  }
  return '';
}
function shortText(n) {
  if (n.querySelector && n.querySelector('input,select,textarea,button')) return '';
  const t = norm(textOf(n));
  return t.length <= BESIDE_MAX ? t : '';
}
function nameOf(el, tag, role, text, label) {
  let n = idsText(el, 'aria-labelledby') || cap(el.getAttribute('aria-label'));
  if (n) return n;
  if (label) return label;
  if (tag === 'input') {
    const t = (el.getAttribute('type') || '').toLowerCase();
    if (t === 'submit' || t === 'reset' || t === 'button') return cap(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
    if (t === 'image') return cap(el.alt);
  }
  if (tag === 'img' || tag === 'area') { n = cap(el.getAttribute('alt')); if (n) return n; }
  if (tag === 'fieldset' || tag === 'table' || tag === 'figure') {
    const c = el.querySelector(tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : 'figcaption');
    if (c) return cap(textOf(c));
  }
  if (FROM_CONTENT.has(role)) {
    if (text) return cap(text);
    const d = el.querySelector('img[alt],[aria-label],svg title');
    if (d) return cap(d.getAttribute('alt') || d.getAttribute('aria-label') || d.textContent);
  }
  if (tag === 'svg') { const t = el.querySelector('title'); if (t) return cap(t.textContent); }
  n = cap(el.getAttribute('title'));
  if (n) return n;
  if (tag === 'input' || tag === 'textarea') return cap(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder'));
  return '';
}
function valueOf(el, tag) {
  if (tag === 'input' || tag === 'textarea' || tag === 'select') {
    const v = el.value == null ? '' : String(el.value);
    if (tag === 'input' && secretField(el)) return '•'.repeat(v.length);
    if (tag === 'input' && INPUT_ROLES[(el.getAttribute('type') || '').toLowerCase()] === 'button') return '';
    return v.length > 1000 ? v.slice(0, 1000) : v;
  }
  return norm(el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow'));
}
// secretField tells a field whose value is a secret: a password field, one
// the page marks as taking a password, or one that was a password field
// until a "show password" button made it plain text.
const SECRET_NAME = /(^|[^a-z])(password|passwd|pwd)([^a-z]|$)/i;
function secretField(el) {
  if (!el || el.localName !== 'input') return false;
  if (S.secrets && S.secrets.has(el)) return true;
  const secret = el.type === 'password' || /(^|\s)(current|new)-password(\s|$)/.test(el.getAttribute('autocomplete') || '') ||
    ((el.type === 'text' || el.type === '') && (SECRET_NAME.test(el.id) || SECRET_NAME.test(el.getAttribute('name') || '')));
  if (secret) {
    if (!S.secrets) S.secrets = new WeakSet();
    S.secrets.add(el);
  }
  return secret;
}
function checkedOf(el, tag) {
  if (tag === 'input') return !!el.checked;
  if (tag === 'option') return !!el.selected;
  return el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-pressed') === 'true';
}
function deepActive() {
  let a = document.activeElement;
  for (let i = 0; a && i < 32; i++) {
    const root = a.shadowRoot || S.closedRoots.get(a);
    if (root && root.activeElement) { a = root.activeElement; continue; }
    let doc = null;
    if (a.localName === 'iframe' || a.localName === 'frame') { try { doc = a.contentDocument; } catch (e) { doc = null; } }
    if (doc && doc.activeElement && doc.activeElement !== doc.body) { a = doc.activeElement; continue; }
    break;
  }
  return a;
}

// --- lists: the Deepest Iterative Ancestor --------------------------------
function classSet(el) {
  const c = el.getAttribute('class');
  return c ? c.trim().split(/\s+/) : [];
}
function childTags(el) {
  let s = '';
  let i = 0;
  for (let c = el.firstElementChild; c && i < 6; c = c.nextElementSibling, i++) s += c.localName + ',';
  return s;
}
// similar tells whether two siblings have the same structure: the same tag
// and a shared class (or both none); classless generic containers must also
// have the same child tags, so that a page's layout blocks are no list.
function similar(a, b, ta) {
  if (ta !== b.localName) return false;
  const ca = classSet(a);
  const cb = classSet(b);
  if (ca.length || cb.length) return ca.some((c) => cb.includes(c));
  if (ITEM_TAGS.has(ta) || a.hasAttribute('role')) return true;
  return childTags(a) === childTags(b);
}
// groups assigns each child of a list of siblings its list position when it
// has at least one similar sibling: Map child -> [index, size].
function groups(kids) {
  const out = new Map();
  const byTag = new Map();
  for (const k of kids) {
    const t = k.localName;
    if (NOT_ITEMS.has(t) || SKIP.has(t)) continue;
    let l = byTag.get(t);
    if (!l) { l = []; byTag.set(t, l); }
    l.push(k);
  }
  for (const [t, l] of byTag) {
    if (l.length < 2) continue;
    const done = new Set();
    for (const a of l) {
      if (done.has(a)) continue;
      const g = l.filter((b) => !done.has(b) && (a === b || similar(a, b, t)));
      if (g.length < 2) continue;
      g.forEach((b, i) => { done.add(b); out.set(b, [i, g.length]); });
    }
  }
  return out;
}

// --- tables ---------------------------------------------------------------------
function closestTable(el) { return el.closest('table,[role=table],[role=grid],[role=treegrid]'); }
function rowsOf(t) {
  if (t.localName === 'table') return Array.from(t.rows);
  return Array.from(t.querySelectorAll('[role=row]')).filter((r) => closestTable(r) === t);
}
function cellsOf(tr) {
  if (tr.cells && tr.localName === 'tr') return Array.from(tr.cells);
  return Array.from(tr.querySelectorAll('[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]')).filter((c) => c.closest('[role=row],tr') === tr);
}
function isHeaderCell(c) { return c.localName === 'th' || c.getAttribute('role') === 'columnheader'; }
function tableInfo(st, t) {
  let info = st.tables.get(t);
  if (info) return info;
  info = { ref: refOf(t), cells: new Map(), rows: new Map(), heads: [] };
  st.tables.set(t, info);
  const grid = [];
  let data = 0;
  rowsOf(t).forEach((tr, r) => {
    const cells = cellsOf(tr);
    const header = (tr.parentElement && tr.parentElement.localName === 'thead') || (cells.length > 0 && cells.every(isHeaderCell));
    grid[r] = grid[r] || [];
    let c = 0;
    let rowHead = null;
    for (const td of cells) {
      while (grid[r][c]) c++;
      const cs = Math.max(1, td.colSpan || 1);
      const rs = Math.max(1, td.rowSpan || 1);
      for (let i = 0; i < rs; i++) { grid[r + i] = grid[r + i] || []; for (let j = 0; j < cs; j++) grid[r + i][c + j] = true; }
      info.cells.set(td, { col: c, tr });
      if (header) { const h = cap(textOf(td)); for (let j = 0; j < cs; j++) if (h) info.heads[c + j] = h; }
      else if (!rowHead && (td.getAttribute('scope') === 'row' || td.getAttribute('role') === 'rowheader' || td.localName === 'th')) rowHead = td;
      c += cs;
    }
    info.rows.set(tr, { idx: header ? -1 : data++, first: cells[0] || null, head: rowHead ? cap(textOf(rowHead)) : '' });
  });
  return info;
}
function cellOf(st, el, role) {
  if (role !== 'row' && role !== 'cell') return null;
  const t = closestTable(el);
  if (!t) return null;
  const info = tableInfo(st, t);
  if (role === 'row') {
    const row = info.rows.get(el);
    return row ? [info.ref, row.idx, -1, '', row.head] : null;
  }
  const cell = info.cells.get(el);
  if (!cell) return null;
  const row = info.rows.get(cell.tr);
  return [info.ref, row.idx, cell.col, info.heads[cell.col] || '', row.first !== el ? row.head : ''];
}

// --- the walk -------------------------------------------------------------------
// kids lists a node's children in the flat tree (a shadow root's, a slot's
// assigned nodes) in one pass, with what the walk needs to know of them.
function kids(el, first) {
  const k = { nodes: [], els: 0, text: false, counts: null };
  if (first === undefined) {
    const root = el.shadowRoot || S.closedRoots.get(el);
    if (root) first = root.firstChild;
    else if (el.localName === 'slot' && el.assignedNodes().length) {
      for (const n of el.assignedNodes({ flatten: true })) add(k, n);
      return k;
    } else first = el.firstChild;
  }
  for (let n = first; n; n = n.nextSibling) add(k, n);
  return k;
}
function add(k, n) {
  k.nodes.push(n);
  const t = n.nodeType;
  if (t === 1) k.els++;
  else if (t === 3 && !k.text && /\S/.test(n.data)) k.text = true;
}
function tagCounts(k) {
  if (k.counts || k.els < 2) return k.counts;
  const c = new Map();
  for (const n of k.nodes) if (n.nodeType === 1) c.set(n.localName, (c.get(n.localName) || 0) + 1);
  k.counts = c;
  return c;
}
// walkKids visits a list of sibling nodes and returns their text.
function walkKids(k, ctx, st, container) {
  const counts = tagCounts(k);
  const grp = container && !ctx.hidden ? ctx.groups : null;
  const seen = counts ? new Map() : null;
  let txt = '';
  for (const n of k.nodes) {
    const nt = n.nodeType;
    if (nt === 3) { if (!ctx.textHidden || ctx.hidden) txt += n.data; continue; }
    if (nt !== 1) continue;
    const tag = n.localName;
    let seg = tag;
    if (counts && counts.get(tag) > 1) { const c = (seen.get(tag) || 0) + 1; seen.set(tag, c); seg += '[' + c + ']'; }
    const li = grp ? grp.get(n) : null;
    txt += visit(n, ctx, seg, li ? [container, li[0], li[1]] : null, st);
    if (txt.length > st.cap) txt = txt.slice(0, st.cap);
  }
  return txt;
}
function frameKids(el, ctx, st, rect, style, path) {
  let doc = null;
  try { doc = el.contentDocument; } catch (e) { doc = null; }
  const x = ctx.ox + rect.left + el.clientLeft + parseFloat(style.paddingLeft || '0');
  const y = ctx.oy + rect.top + el.clientTop + parseFloat(style.paddingTop || '0');
  if (!doc) {
    if (el.getAttribute('src') && st.xo) st.xo.push({ r: refOf(el), x, y });
    return null;
  }
  if (!doc.body) return null;
  return { kids: kids(doc.body), ox: x, oy: y, path: path + '/#document' };
}
function visit(el, pctx, seg, li, st) {
  const tag = el.localName;
  if (SKIP.has(tag)) return '';
  const path = pctx.path ? pctx.path + '/' + seg : seg;
  let hidden = pctx.hidden;
  let style = null;
  let rect = null;
  let visible = false;
  let inline = true;
  if (!hidden) {
    style = getComputedStyle(el);
    if (style.display === 'none') hidden = true;
    else {
      inline = style.display.startsWith('inline') || style.display === 'contents';
      rect = el.getBoundingClientRect();
      visible = rect.width > 0 && rect.height > 0 && style.visibility === 'visible';
    }
  }
  const textHidden = hidden || style.visibility !== 'visible';
  // An svg is one leaf, except the recorder's walk down to a part of a
  // drawing the person hit (st.keep).
  const into = tag === 'svg' && st.keep && el !== st.keep && el.contains(st.keep);
  const leaf = (LEAF.has(tag) && !into) || tag === 'iframe' || tag === 'frame';
  const k = leaf ? NO_KIDS : kids(el);
  const root = !leaf && (el.shadowRoot || S.closedRoots.get(el));
  const groups = hidden || leaf ? null : groupsOf(k);
  const role0 = roleOf(el, tag);
  let include = !!role0 || !!el.id || el.hasAttribute('tabindex') || el.hasAttribute('onclick') || el.hasAttribute('aria-label');
  if (!hidden && !include) include = !!li || (groups && groups.size > 0) || el.hasAttribute('title') || (!textHidden && k.text) || (visible && iconLike(el, tag, k));
  if (el === st.keep) include = true;
  let role = role0;
  if (!role) role = li && !hidden ? 'listitem' : groups && groups.size > 0 ? 'list' : !hidden && k.text ? 'text' : 'generic';
  let rec = null;
  let pi = pctx.pi;
  if (include && st.mode !== 'text') {
    rec = { r: refOf(el), ro: role, pa: pctx.pi, p: path };
    if (pctx.inWithin) rec.in = 1;
    st.out.push(rec);
    pi = st.out.length - 1;
  }
  const ctx = {
    pi, path: root ? path + '/#shadow' : path, hidden, textHidden, ox: pctx.ox, oy: pctx.oy, groups,
    list: li || pctx.list, legend: pctx.legend, row: pctx.row, inWithin: pctx.inWithin || el === st.within,
  };
  if (tag === 'fieldset') { const lg = el.querySelector('legend'); if (lg) ctx.legend = cap(textOf(lg)); }
  let text = '';
  if ((tag === 'iframe' || tag === 'frame') && !hidden && rect) {
    const f = frameKids(el, ctx, st, rect, style, path);
    if (f) { ctx.ox = f.ox; ctx.oy = f.oy; ctx.path = f.path; ctx.groups = groupsOf(f.kids); walkKids(f.kids, ctx, st, refOf(el)); }
  } else if (tag === 'select') {
    const o = el.selectedOptions && el.selectedOptions[0];
    text = o ? o.textContent : '';
    if (st.mode !== 'text') { ctx.groups = null; walkKids(kids(el, el.firstChild), ctx, st, ''); }
  } else if (!leaf) {
    if (role0 === 'row') {
      const t = closestTable(el);
      const info = t && tableInfo(st, t).rows.get(el);
      ctx.row = info && info.first ? { first: info.first, text: cap(textOf(info.first)) } : null;
    }
    text = walkKids(k, ctx, st, groups && groups.size ? refOf(el) : '');
  }
  if (tag === 'br') text = '\n';
  if (rec) fill(rec, el, tag, role0 || role, text, { st, pctx, li, hidden, visible, rect });
  if (role0 === 'heading' && !hidden) st.heading = cap(text);
  if (textHidden || tag === 'input' || tag === 'textarea') return '';
  return inline ? text : ' ' + text + ' ';
}
const NO_KIDS = { nodes: [], els: 0, text: false, counts: null };
// iconLike tells a textless element a person can still aim at: an svg, or
// an empty leaf with a class or an aria attribute (an icon span, a font
// icon). It is kept so that a click on it is recorded against it, not
// against the container around it, and can be found again.
function iconLike(el, tag, k) {
  if (tag === 'svg') return true;
  if (k.els || k.text) return false;
  if (el.hasAttribute('class')) return true;
  for (const a of el.attributes) if (a.name.startsWith('aria-')) return true;
  return false;
}
function groupsOf(k) {
  if (k.els < 2) return null;
  const els = [];
  for (const n of k.nodes) if (n.nodeType === 1) els.push(n);
  return groups(els);
}
function fill(rec, el, tag, role, text, o) {
  const labelable = tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output';
  const label = labelable ? labelOf(el) : '';
  const t = cap(text);
  const set = (k, v) => { if (v) rec[k] = v; };
  set('n', nameOf(el, tag, role, t, label));
  set('t', t);
  set('i', el.id);
  set('c', norm(el.getAttribute('class')));
  set('v', valueOf(el, tag));
  set('ph', norm(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder')));
  set('l', label);
  if (tag === 'a' || tag === 'area') set('h', el.href);
  const cell = cellOf(o.st, el, role);
  if (cell) rec.ce = cell;
  let d = idsText(el, 'aria-describedby');
  const row = o.pctx.row;
  if (!d && row && row.text && row.first !== el && !row.first.contains(el)) d = row.text;
  if (!d && labelable && !label && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) d = besideText(el);
  set('d', d || o.pctx.legend || o.st.heading);
  if (o.rect) {
    const r = o.rect;
    rec.b = [round(r.left + o.pctx.ox), round(r.top + o.pctx.oy), round(r.width), round(r.height)];
  }
  let f = 0;
  if (o.visible) f |= 1;
  const disabled = (el.matches && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true';
  if (!disabled) f |= 2;
  if (!disabled && (el.isContentEditable || (isTextInput(el, tag) && !el.readOnly))) f |= 4;
  if (checkedOf(el, tag)) f |= 8;
  if (el === o.st.focus) f |= 16;
  // The interpreter treats what is typed into a secret field as a secret.
  if (tag === 'input' && secretField(el)) f |= 32;
  rec.f = f;
  if (o.li) rec.li = o.li;
  else if (o.pctx.list) rec.li = o.pctx.list;
}
function round(v) { return Math.round(v * 10) / 10; }

// --- entry points -----------------------------------------------------------
function newState(mode, within) {
  return { mode, out: [], tables: new Map(), focus: deepActive(), heading: '', cap: mode === 'text' ? 1e7 : 2 * CAP, xo: [], within };
}
function walkDoc(st) {
  const body = document.body || document.documentElement;
  if (!body) return '';
  const ctx = {
    pi: -1, path: '', hidden: false, textHidden: false, ox: 0, oy: 0, groups: null,
    list: null, legend: '', row: null, inWithin: st.within === body,
  };
  return walkKids(kids(body), ctx, st, '');
}
// observe walks the page; keep is an element to keep whatever it shows
// (the recorder's hit element).
function observe(a, keep) {
  const st = newState('observe', null);
  st.keep = keep || null;
  walkDoc(st);
  flush();
  return { url: location.href, title: document.title, els: st.out, xo: st.xo, mark: S.mut };
}
function lower(q) {
  const o = {};
  for (const k of ['ro', 'n', 't', 'l', 'ph', 'h', 'c']) if (q[k]) o[k] = String(q[k]).toLowerCase();
  if (q.i) o.i = q.i;
  return o;
}
function has(v, s) { return !!v && v.toLowerCase().includes(s); }
// anyMatch is Find's test: at least one given attribute matches; with none
// given, the element must be interactive.
function anyMatch(r, q) {
  let any = false;
  for (const k of ['ro', 'i', 'n', 't', 'l', 'ph', 'h', 'c']) {
    if (!q[k]) continue;
    any = true;
    if (k === 'ro' ? r.ro === q.ro : k === 'i' ? r.i === q.i : has(r[k], q[k])) return true;
  }
  return !any && (INTERACTIVE.has(r.ro) || (r.f & 4) !== 0);
}
// allMatch is wait's test: every given attribute matches.
function allMatch(r, q) {
  for (const k of ['ro', 'i', 'n', 't', 'l', 'ph', 'h', 'c']) {
    if (!q[k]) continue;
    if (!(k === 'ro' ? r.ro === q.ro : k === 'i' ? r.i === q.i : has(r[k], q[k]))) return false;
  }
  return true;
}
// filter keeps the records that pass test and re-points Parent to the
// nearest kept ancestor.
function filter(out, test) {
  const keep = new Int32Array(out.length).fill(-1);
  const res = [];
  for (let i = 0; i < out.length; i++) {
    const r = out[i];
    if (!test(r)) continue;
    let p = r.pa;
    while (p >= 0 && keep[p] < 0) p = out[p].pa;
    r.pa = p >= 0 ? keep[p] : -1;
    delete r.in;
    keep[i] = res.length;
    res.push(r);
  }
  return res;
}
function find(q) {
  let within = null;
  if (q.w) {
    within = byRef(q.w);
    if (!within) return { err: 'the element ' + q.w + ' of "within" is no longer on the page' };
  }
  const st = newState('find', within);
  walkDoc(st);
  const lq = lower(q);
  const els = filter(st.out, (r) => (!within || r.in) && anyMatch(r, lq));
  return { url: location.href, title: document.title, els, xo: st.xo };
}
function pageText() {
  return norm(walkDoc(newState('text', null)));
}
