// The demo site's script. Every change goes to the server at once, so that
// a workflow (or a test) can read it back from /api/state:
//
//   - the notes, the reading list's cells and the sheet's Total box save as
//     they change (input events, and a MutationObserver for cells changed
//     without one), when they lose focus, on Enter (cells, Total), on Save
//     and on Ctrl+S; one request per field is in flight at a time and the
//     last one always carries the latest value; a "rev" (the time of the
//     save) lets the server drop a save that a newer one overtook, such as
//     the beacon sent when the page goes away;
//   - the files page opens its Rename dialog here and renames through
//     fetch without reloading, so the list's elements stay in place;
//   - the mail page shows the reply form when Reply is clicked;
//   - in the moved layout, the notes page's "More" menu opens and closes.
//
// Without this script the pages fall back to plain forms (the reading
// list's cells are then read-only; the moved layout's menu stays closed).
(() => {
  'use strict';

  const revNow = () => performance.timeOrigin + performance.now();
  const savers = [];

  function status(text) {
    const el = document.getElementById('save-status');
    if (el) el.textContent = text;
  }

  async function errorOf(resp) {
    try {
      const j = await resp.json();
      if (j && j.error) return j.error;
    } catch (_) { /* not JSON */ }
    return 'error ' + resp.status;
  }

  // saver keeps the server's copy of one field equal to read().
  function saver(url, field, read) {
    let saved = read();
    let running = null;
    const body = (v) => new URLSearchParams({ [field]: v, rev: String(revNow()) });

    async function loop() {
      let wrote = false;
      for (;;) {
        const v = read();
        if (v === saved) break;
        const b = body(v);
        status('Saving…');
        let resp;
        try {
          resp = await fetch(url, {
            method: 'POST',
            body: b,
            headers: { Accept: 'application/json' },
            keepalive: b.toString().length < 60000,
          });
        } catch (e) {
          status('Not saved: ' + e.message);
          return;
        }
        if (!resp.ok) {
          status('Not saved: ' + await errorOf(resp));
          return;
        }
        saved = v;
        wrote = true;
      }
      if (wrote) status('Saved.');
    }

    const s = {
      flush() {
        if (!running) running = loop().finally(() => { running = null; });
        return running;
      },
      dirty: () => read() !== saved,
      beacon() {
        if (read() !== saved && navigator.sendBeacon) navigator.sendBeacon(url, body(read()));
      },
    };
    savers.push(s);
    return s;
  }

  async function saveAll() {
    // A flush already running picks up the latest value before it ends;
    // flushing twice covers a change made while the first was finishing.
    await Promise.all(savers.map((s) => s.flush()));
    await Promise.all(savers.map((s) => s.flush()));
    if (!savers.some((s) => s.dirty())) status('Saved.');
  }

  function autosave(el, s) {
    const flush = () => { s.flush(); };
    el.addEventListener('input', flush);
    el.addEventListener('change', flush);
    el.addEventListener('blur', flush);
  }

  function saveOnSubmit(form) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      saveAll();
    });
  }

  // Notes.
  const notes = document.getElementById('notes');
  if (notes && notes.form) {
    autosave(notes, saver(notes.form.action, 'notes', () => notes.value));
    saveOnSubmit(notes.form);
  }

  // The moved layout's "More" menu: its items exist only while it is open,
  // as in menus built on demand; Escape, a click elsewhere or choosing an
  // item closes it.
  const more = document.getElementById('more-button');
  const moreMenu = document.getElementById('more-menu');
  const moreItems = document.getElementById('more-items');
  if (more && moreMenu && moreItems) {
    const setOpen = (open) => {
      moreMenu.replaceChildren(...(open ? [moreItems.content.cloneNode(true)] : []));
      more.setAttribute('aria-expanded', String(open));
    };
    more.addEventListener('click', () => setOpen(more.getAttribute('aria-expanded') !== 'true'));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setOpen(false); });
    document.addEventListener('click', (e) => {
      if (!more.contains(e.target) && !moreMenu.contains(e.target)) setOpen(false);
    });
    // After the item's own submit ran: removing it earlier would drop the
    // form submission it starts.
    moreMenu.addEventListener('click', () => setTimeout(() => setOpen(false), 0));
  }

  // Reading list: every cell is editable and saves itself.
  const rl = document.getElementById('reading-list-form');
  if (rl) {
    for (const cell of rl.querySelectorAll('td[data-field]')) {
      const s = saver(rl.action, cell.dataset.field + '-' + cell.dataset.row, () => cell.innerText.trim());
      autosave(cell, s);
      new MutationObserver(() => { s.flush(); })
        .observe(cell, { characterData: true, childList: true, subtree: true });
      cell.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault(); // a cell holds one paragraph: Enter commits
          s.flush();
        }
      });
      cell.addEventListener('paste', (e) => {
        // Paste plain text, not the formatting of the page it came from.
        const t = e.clipboardData && e.clipboardData.getData('text/plain');
        if (t == null) return;
        e.preventDefault();
        document.execCommand('insertText', false, t);
      });
    }
    saveOnSubmit(rl);
  }

  // Sheet: the Total box.
  const total = document.getElementById('total');
  if (total && total.form) {
    autosave(total, saver(total.form.action, 'total', () => total.value.trim()));
    saveOnSubmit(total.form);
  }

  if (savers.length) {
    document.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        saveAll();
      }
    });
    // Last chance for a change still in flight when the tab closes.
    window.addEventListener('pagehide', () => savers.forEach((s) => s.beacon()));
  }

  // Files: the Rename dialog.
  const dialog = document.getElementById('rename-dialog');
  if (dialog) {
    const form = document.getElementById('rename-form');
    const from = document.getElementById('rename-from');
    const old = document.getElementById('rename-old');
    const box = document.getElementById('rename-name');
    const err = document.getElementById('rename-error');

    const showError = (msg) => {
      err.textContent = msg;
      err.hidden = !msg;
    };

    const open = (li) => {
      from.value = li.dataset.name;
      old.textContent = li.dataset.name;
      box.value = li.dataset.name;
      showError('');
      if (dialog.open) dialog.close();
      dialog.showModal();
      box.focus();
      box.select();
    };

    for (const f of document.querySelectorAll('form.rename-open')) {
      f.addEventListener('submit', (e) => {
        e.preventDefault();
        open(f.closest('li'));
      });
    }

    form.addEventListener('submit', async (e) => {
      if (e.submitter && e.submitter.value === 'cancel') return; // method=dialog closes it
      e.preventDefault();
      const body = new URLSearchParams(new FormData(form));
      let resp;
      try {
        resp = await fetch(form.action, { method: 'POST', body, headers: { Accept: 'application/json' } });
      } catch (ex) {
        showError('Not renamed: ' + ex.message);
        return;
      }
      if (!resp.ok) {
        showError(await errorOf(resp));
        return;
      }
      const { from: was, name } = await resp.json();
      for (const li of document.querySelectorAll('#files li')) {
        if (li.dataset.name !== was) continue;
        li.dataset.name = name;
        li.querySelector('.file-name').textContent = name;
        li.querySelector('input[name="rename"]').value = name;
      }
      dialog.close();
      status(was === name ? 'Kept the name ' + name + '.' : 'Renamed ' + was + ' to ' + name + '.');
    });
  }

  // Mail: Reply shows the reply form.
  const replyForm = document.getElementById('reply-form');
  const replyOpen = document.querySelector('form.reply-open');
  if (replyForm && replyOpen) {
    replyOpen.addEventListener('submit', (e) => {
      e.preventDefault();
      replyForm.hidden = false;
      replyOpen.querySelector('button').setAttribute('aria-expanded', 'true');
      document.getElementById('reply').focus();
    });
  }
})();
