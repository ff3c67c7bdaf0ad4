// api.js — the in-page half of the API-first actions (AXIS): set_value,
// submit_form, download_link and read_table. Each acts through the page's
// own interfaces (a field's value setter, form.requestSubmit, fetch, the
// table model) instead of input events, and checks what it did.
const apiFetch = G.fetch ? G.fetch.bind(G) : null;

// fieldOf is the control a set_value aims at: the target, the control of a
// label, or the <select> of an option.
function fieldOf(el) {
  if (el.localName === 'label' && el.control) return el.control;
  if (el.localName === 'option') return el.closest('select') || el;
  return el;
}
// NO_VALUE are the inputs whose value is not what a person sets in them:
// they are clicked (checkbox, radio, buttons) or given files (upload).
const NO_VALUE = new Set(['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden']);
// apiShown quotes a value for a message; a secret's is never shown.
function apiShown(el, v, secret) {
  if (secret || (S.secret && S.secret.has(el))) return '(' + v.length + ' characters, masked)';
  return shown(el, v);
}
// apiSetValue sets a field's value with the element's own value setter (so
// a framework's value tracking sees the change), fires input and change as
// typing and leaving the field do, and reads the value back after the
// page's handlers ran: a value that did not take fails the step.
function apiSetValue(a) {
  const t = resolve(a.t);
  if (!t) return gone(a.t);
  const el = fieldOf(t);
  if (el.disabled || el.readOnly) return { err: 'the field ' + describe(el) + ' is not editable (' + (el.disabled ? 'disabled' : 'read-only') + ')' };
  const text = String(a.text);
  if (el.localName === 'select') {
    // The option whose text or value is the text, exactly, then up to case:
    // never a near one, which would set the wrong choice and report ok.
    const opts = Array.from(el.options);
    const lc = norm(text).toLowerCase();
    const o = opts.find((x) => norm(x.textContent) === norm(text) || x.value === text) ||
      opts.find((x) => norm(x.textContent).toLowerCase() === lc || x.value.toLowerCase() === lc);
    if (!o) return { err: 'the list ' + describe(el) + ' has no option ' + JSON.stringify(text) + ' (it has ' + opts.slice(0, 12).map((x) => JSON.stringify(norm(x.textContent))).join(', ') + (opts.length > 12 ? ', …' : '') + ')' };
    // A script may select a disabled option, a person cannot: the form
    // would send a choice the page does not offer.
    if (o.disabled || (o.parentElement && o.parentElement.localName === 'optgroup' && o.parentElement.disabled)) {
      return { err: 'the option ' + JSON.stringify(norm(o.textContent)) + ' of the list ' + describe(el) + ' is disabled: it cannot be chosen' };
    }
    if (el.multiple) for (const x of opts) x.selected = x === o; else el.value = o.value;
    fire(el, 'input');
    fire(el, 'change');
    if (el.selectedOptions[0] !== o) return { err: 'the list ' + describe(el) + ' shows ' + JSON.stringify(el.selectedOptions[0] ? norm(el.selectedOptions[0].textContent) : '') + ' after set_value ' + JSON.stringify(text) + ' (the page changed it)' };
    return { text: norm(o.textContent) };
  }
  if (el.localName === 'input' && NO_VALUE.has(el.type)) {
    return { err: 'set_value sets a text field, a list or a value input, not ' + describe(el) + ' (<input type=' + el.type + '>: ' + (el.type === 'file' ? 'upload' : 'click') + ' it)' };
  }
  if (isField(el)) {
    const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value');
    if (desc && desc.set) desc.set.call(el, text); else el.value = text;
  } else if (el.isContentEditable) {
    el.textContent = text;
  } else {
    return { err: 'the element ' + describe(el) + ' is not a field: set_value needs an <input>, <textarea>, <select> or an editable element' };
  }
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: text }));
  fire(el, 'change');
  const got = isField(el) ? el.value : norm(el.innerText);
  const ok = isField(el) ? sameValue(el, got, text) : got === norm(text);
  // describe() quotes an editable element's text, which may be the secret.
  const who = a.sec && !isField(el) ? el.localName + (el.id ? '#' + el.id : '') : describe(el);
  if (!ok) return { err: 'the field ' + who + ' holds ' + apiShown(el, got, a.sec) + ' after set_value ' + apiShown(el, text, a.sec) + notTaken(el) };
  return { text };
}

// apiSubmit submits the form the target belongs to as its submit button
// would: requestSubmit runs the form's validation, fires submit (the page's
// handlers see it) and navigates unless a handler prevents it. A submit
// button target is the submitter, so its name=value is sent.
function apiSubmit(a) {
  const el = resolve(a.t);
  if (!el) return gone(a.t);
  const form = el.localName === 'form' ? el : (el.form || el.closest('form'));
  if (!form) return { err: 'the element ' + describe(el) + ' is in no form: submit_form needs a <form> or an element of one' };
  const submitter = el !== form && el.form === form && (el.type === 'submit' || el.type === 'image') ? el : null;
  if (submitter && submitter.disabled) return { err: 'the submit button ' + describe(submitter) + ' is disabled' };
  if (!form.noValidate && !(submitter && submitter.formNoValidate)) {
    const bad = Array.from(form.elements).find((f) => f.willValidate && !f.checkValidity());
    if (bad) return { err: 'the form cannot be submitted: the field ' + describe(bad) + ' is invalid: ' + bad.validationMessage };
  }
  form.requestSubmit(submitter || undefined);
  return {};
}

// DOWNLOAD_MAX bounds what download_link carries out of the page.
const DOWNLOAD_MAX = 32 << 20;
// apiReadBounded reads a response's body, or gives null (and cancels the
// rest) once it passes DOWNLOAD_MAX.
async function apiReadBounded(res) {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > DOWNLOAD_MAX) {
      reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  const buf = new Uint8Array(total);
  let off = 0;
  for (const p of parts) { buf.set(p, off); off += p.length; }
  return buf;
}
// apiDownload fetches a link's target with the page's cookies and returns
// its bytes (base64), so the file is written where the driver runs, even
// with a remote browser. A link to another origin is fetched only when
// that origin allows it (CORS): otherwise the step fails and says so.
async function apiDownload(a) {
  const el = resolve(a.t);
  if (!el) return gone(a.t);
  let link = el.closest('a[href],area[href]');
  if (!link && el.querySelectorAll) {
    const inner = el.querySelectorAll('a[href],area[href]');
    if (inner.length === 1) link = inner[0];
  }
  if (!link) return { err: 'the element ' + describe(el) + ' is not a link (an <a href>): download_link needs one' };
  const href = link.href;
  if (!/^(https?|blob|data):/i.test(href)) return { err: 'the link ' + describe(link) + ' goes to ' + JSON.stringify(href.slice(0, 200)) + ', which is not a file to download' };
  if (!apiFetch) return { err: 'the page has no fetch' };
  let res;
  try {
    res = await apiFetch(href, { credentials: 'include', cache: 'no-store', redirect: 'follow' });
  } catch (e) {
    return { err: 'downloading ' + href + ' failed: ' + e.message + (new URL(href, location.href).origin !== location.origin ? ' (a link to another origin is downloaded only if that origin allows it: CORS)' : '') };
  }
  if (!res.ok) return { err: 'downloading ' + href + ': the server answered ' + res.status + ' ' + res.statusText };
  const len = Number(res.headers.get('content-length') || '0');
  if (len > DOWNLOAD_MAX) return { err: 'downloading ' + href + ': the file is ' + len + ' bytes, more than download_link carries (' + DOWNLOAD_MAX + ')' };
  // Read in parts and stop past the bound: a response that gives no
  // length (or a false one) would otherwise be held whole, without end.
  const buf = await apiReadBounded(res);
  if (!buf) return { err: 'downloading ' + href + ': the file is more than ' + DOWNLOAD_MAX + ' bytes' };
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode.apply(null, buf.subarray(i, i + 0x8000));
  return { href: res.url || href, data: btoa(bin), size: buf.length, disposition: res.headers.get('content-disposition') || '', name: link.getAttribute('download') || '' };
}

// TABLE_CELLS bounds what read_table returns.
const TABLE_CELLS = 200000;
// cellText is a cell's visible text, whitespace collapsed; a form control
// in it counts by its value (never a password field's, nor one a secret
// was typed or set into).
function cellText(cell) {
  if (!cell.querySelector('input,textarea,select')) return norm(cell.innerText);
  const parts = [];
  const walk = (n) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { parts.push(c.data); continue; }
      if (c.nodeType !== 1 || SKIP.has(c.localName)) continue;
      if (c.localName === 'select') { const o = c.selectedOptions[0]; parts.push(' ' + (o ? o.textContent : '') + ' '); continue; }
      if (c.localName === 'textarea' || (c.localName === 'input' && !NO_VALUE.has(c.type) && !secretField(c))) {
        if (!(S.secret && S.secret.has(c))) parts.push(' ' + c.value + ' ');
        continue;
      }
      if (c.localName === 'input') continue;
      walk(c);
    }
  };
  walk(cell);
  return norm(parts.join(''));
}
// tableRows lists a table's rows, each as its cells: an HTML table by its
// own model (thead first, tfoot last), an ARIA table by its roles.
function tableRows(el) {
  if (el.localName === 'table') return Array.from(el.rows).map((r) => Array.from(r.cells));
  const own = (n, sel) => Array.from(n.querySelectorAll(sel));
  const rows = own(el, '[role=row]').filter((r) => r.parentElement.closest('[role=table],[role=grid],[role=treegrid],table') === el);
  return rows.map((r) => own(r, '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]').filter((c) => c.closest('[role=row]') === r));
}
// apiReadTable reads a table into rows of texts, the header rows first. A
// cell spanning rows or columns gives its text to each place it covers,
// so every column lines up under its header.
function apiReadTable(a) {
  const el = resolve(a.t);
  if (!el) return gone(a.t);
  const role = (el.getAttribute('role') || '').toLowerCase();
  if (el.localName !== 'table' && role !== 'table' && role !== 'grid' && role !== 'treegrid') {
    const inTable = el.closest && el.closest('table,[role=table],[role=grid]');
    return { err: 'the element ' + describe(el) + ' is not a table' + (inTable ? ' but is inside ' + describe(inTable) + ': read_table takes the table itself' : ' (read_table needs a <table> or an element with role table or grid)') };
  }
  const rows = tableRows(el);
  const grid = rows.map(() => []);
  let n = 0;
  for (let ri = 0; ri < rows.length; ri++) {
    let c = 0;
    for (const cell of rows[ri]) {
      while (grid[ri][c] !== undefined) c++;
      const text = cellText(cell);
      const cs = Math.min(Math.max(cell.colSpan || 1, 1), 1000);
      let rs = cell.rowSpan === 0 ? rows.length - ri : Math.max(cell.rowSpan || 1, 1);
      rs = Math.min(rs, rows.length - ri);
      n += cs * rs;
      if (n > TABLE_CELLS) return { err: 'the table ' + describe(el) + ' has more than ' + TABLE_CELLS + ' cells' };
      for (let dr = 0; dr < rs; dr++) for (let dc = 0; dc < cs; dc++) grid[ri + dr][c + dc] = text;
      c += cs;
    }
  }
  return { rows: grid.map((r) => Array.from(r, (x) => (x === undefined ? '' : x))) };
}

Object.assign(OPS, { apiSetValue, apiSubmit, apiDownload, apiReadTable });
