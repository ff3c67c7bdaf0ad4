// selector.js — the last part of cogflow's in-page script: the hard
// constraints of an element description (css piercing shadow roots, with
// ">>>" stepping into a shadow root; xpath; a frame index path), evaluated
// exactly, so that anchoring only ever scores among what they match.
function shadowOf(el) { return el.shadowRoot || S.closedRoots.get(el) || null; }
// deepAll adds to out every element under root (a document, shadow root or
// element) matching sel, in root and in every shadow root below it.
function deepAll(root, sel, out) {
  for (const el of root.querySelectorAll(sel)) out.add(el);
  const doc = root.ownerDocument || root;
  const tw = doc.createTreeWalker(root, 1);
  for (let n = tw.nextNode(); n; n = tw.nextNode()) {
    const sr = shadowOf(n);
    if (sr) deepAll(sr, sel, out);
  }
}
function cssIn(doc, css) {
  const parts = css.split('>>>').map((p) => p.trim());
  let cur = new Set();
  deepAll(doc, parts[0], cur);
  for (let i = 1; i < parts.length; i++) {
    const next = new Set();
    for (const el of cur) {
      const root = shadowOf(el);
      if (root) deepAll(root, parts[i], next);
      else for (const x of el.querySelectorAll(parts[i])) next.add(x);
    }
    cur = next;
  }
  return cur;
}
function xpathIn(doc, x) {
  const out = new Set();
  const res = doc.evaluate(x, doc, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
  for (let i = 0; i < res.snapshotLength; i++) {
    const n = res.snapshotItem(i);
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (el) out.add(el);
  }
  return out;
}
// frameEls lists a document's frames in document order, the order of the
// DevTools Recorder's frame indexes (shadow roots included).
function frameEls(doc) {
  const out = new Set();
  deepAll(doc, 'iframe,frame', out);
  return Array.from(out);
}
// docsUnder is a document and, recursively, its same-origin frames'.
function docsUnder(doc, out) {
  out.push(doc);
  for (const f of frameEls(doc)) {
    let d = null;
    try { d = f.contentDocument; } catch (e) { d = null; }
    if (d) docsUnder(d, out);
  }
  return out;
}
// frameBox is where a frame's content starts in the top viewport.
function frameBox(f) {
  const r = f.getBoundingClientRect();
  const cs = getComputedStyle(f);
  const [ox, oy] = frameOffset(f);
  return { x: ox + r.left + f.clientLeft + parseFloat(cs.paddingLeft || '0'), y: oy + r.top + f.clientTop + parseFloat(cs.paddingTop || '0') };
}
function matchRecord(el, st) {
  const tag = el.localName;
  const role = roleOf(el, tag) || (tag === 'svg' ? 'image' : tag === 'option' ? 'option' : 'generic');
  const rec = { r: refOf(el), ro: role, pa: -1, p: '' };
  const style = getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  const visible = rect.width > 0 && rect.height > 0 && style.visibility === 'visible' &&
    (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));
  const [ox, oy] = frameOffset(el);
  const text = tag === 'input' || tag === 'textarea' ? '' : (el.innerText !== undefined ? el.innerText : el.textContent) || '';
  fill(rec, el, tag, role, text, { st, pctx: { ox, oy, row: null, legend: '', list: null }, li: null, hidden: !visible, visible, rect });
  return rec;
}
// selectFind is Find for a description with css, xpath or frame: the
// elements that satisfy every one of them, in the frame given by fp (a
// child-frame index path), or in the document and its same-origin frames.
// A cross-origin frame on the way answers {cross: its ref, rest: the
// path inside it}; without a path, cross-origin frames are listed in xo
// for the driver to search too.
function selectFind(a) {
  let doc = document;
  const fp = a.fp || null;
  if (fp) {
    for (let i = 0; i < fp.length; i++) {
      const fs = frameEls(doc);
      const f = fs[fp[i]];
      if (!f) return { err: 'frame ' + JSON.stringify(fp) + ': the document has ' + fs.length + ' frame(s), no frame ' + fp[i] };
      let d = null;
      try { d = f.contentDocument; } catch (e) { d = null; }
      if (!d) return Object.assign({ cross: refOf(f), rest: fp.slice(i + 1) }, frameBox(f));
      doc = d;
    }
  }
  const docs = fp ? [doc] : docsUnder(doc, []);
  const st = newState('find', null);
  const els = [];
  for (const d of docs) {
    let set = null;
    try {
      if (a.css) set = cssIn(d, a.css);
    } catch (e) { return { err: 'css ' + JSON.stringify(a.css) + ' is not a valid selector' }; }
    if (a.xpath) {
      let xs;
      try { xs = xpathIn(d, a.xpath); } catch (e) { return { err: 'xpath ' + JSON.stringify(a.xpath) + ' is not a valid XPath' }; }
      set = set ? new Set(Array.from(set).filter((x) => xs.has(x))) : xs;
    }
    // A frame alone scopes the search: every element of that document is
    // a candidate, for the descriptive attributes to choose among.
    if (!set) set = new Set(Array.from(d.querySelectorAll('body *')).filter((x) => !SKIP.has(x.localName)).slice(0, 2000));
    for (const el of set) if (el && el.nodeType === 1) els.push(matchRecord(el, st));
  }
  const xo = [];
  if (!fp) {
    for (const d of docs) {
      for (const f of frameEls(d)) {
        let cd = null;
        try { cd = f.contentDocument; } catch (e) { cd = null; }
        if (cd || !f.getAttribute('src')) continue;
        xo.push(Object.assign({ r: refOf(f) }, frameBox(f)));
      }
    }
  }
  return { url: location.href, title: document.title, els, xo };
}
// pointInView is the pointer actions' point: when the element is covered
// where it stands — typically clipped by a scrolling container that the
// page-level check does not see, so the hit lands on the container or the
// page — the element itself is scrolled into view (every scrolling
// ancestor moves) and the hit test runs again.
function pointInView(a) {
  const el = resolve(a.t);
  const p = point(el, a.t);
  if (!p || !p.covered || !el) return p;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return point(el, a.t);
}
// scrollTo is scroll's position form (a recording's scroll step): the
// element, or the page, scrolled to x, y at once.
function scrollToPos(a) {
  const el = a.t ? resolve(a.t) : null;
  if (a.t && !el) return gone(a.t);
  const o = { left: a.x, top: a.y, behavior: 'instant' };
  if (el) el.scrollTo(o); else G.scrollTo(o);
  return {};
}
OPS.selectorFind = selectFind;
OPS.scrollTo = scrollToPos;
OPS.point = pointInView;
