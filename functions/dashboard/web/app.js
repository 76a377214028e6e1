// The dashboard's browser code: small progressive enhancements of server-rendered pages (no
// framework). Loaded as a module from /dashboard/app.js; the pages allow no inline script.

function onReady(fn) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn);
  else fn();
}

onReady(() => {
  // Selects that act at once (environment, organization).
  for (const select of document.querySelectorAll('select[data-autosubmit]')) {
    select.addEventListener('change', () => select.form.requestSubmit());
  }
  // Forms that ask first (revoke, remove).
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
  // Copy buttons.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(document.getElementById(button.dataset.copy));
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = 'Selected: press Ctrl+C';
      }
    });
  }
  const newRun = document.getElementById('new-run');
  if (newRun) newRunForm(newRun);
  placeBoxes();
  const data = document.getElementById('run-data');
  if (data) void showRun(JSON.parse(data.textContent));
  for (const live of document.querySelectorAll('[data-live]')) pollStatus(live);
});

/**
 * The new-run form: shows the fields of the chosen kind only (the JSON Schema of an extraction, the
 * names of a classification or split) and says, as the schema is typed, whether it is JSON of an
 * object. The server checks it again; this is only a hint.
 */
function newRunForm(form) {
  const kind = form.querySelector('select[name="kind"]');
  const show = () => {
    for (const block of form.querySelectorAll('[data-for-kind]')) block.hidden = !block.dataset.forKind.split(' ').includes(kind.value);
  };
  kind.addEventListener('change', show);
  show();
  const schema = form.querySelector('textarea[name="json_schema"]');
  const check = document.getElementById('run-schema-check');
  if (!schema || !check) return;
  const say = () => {
    try {
      const parsed = JSON.parse(schema.value);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it must be a JSON object');
      const count = Object.keys(parsed.properties ?? {}).length;
      check.textContent = `JSON of an object: ${count} top-level propert${count === 1 ? 'y' : 'ies'}.`;
      check.className = 'hint';
    } catch (error) {
      check.textContent = `Not a JSON Schema yet: ${error.message}`;
      check.className = 'hint error';
    }
  };
  schema.addEventListener('input', say);
  say();
}

/** Source boxes are positioned from their data attributes (fractions of the page). */
function placeBoxes() {
  for (const box of document.querySelectorAll('.source-box')) {
    box.style.left = `${Number(box.dataset.left) * 100}%`;
    box.style.top = `${Number(box.dataset.top) * 100}%`;
    box.style.width = `${Math.max(Number(box.dataset.width) * 100, 0.4)}%`;
    box.style.height = `${Math.max(Number(box.dataset.height) * 100, 0.4)}%`;
  }
  for (const button of document.querySelectorAll('[data-box]')) {
    button.addEventListener('click', () => {
      for (const el of document.querySelectorAll('.active')) el.classList.remove('active');
      const box = document.getElementById(button.dataset.box);
      if (!box) return;
      box.classList.add('active');
      button.classList.add('active');
      box.scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
  }
}

/** Draws the run's document under its boxes: PDF pages with pdf.js (served by the dashboard), images as they are. */
async function showRun(run) {
  const status = document.getElementById('pages-status');
  const pages = [...document.querySelectorAll('.page[data-page]')];
  if (!run.file || pages.length === 0) return;
  drawLayout(run.layout ?? []);
  try {
    if (run.file.kind === 'image') {
      const page = pages[0];
      const img = document.createElement('img');
      img.alt = `Page 1 of ${run.file.filename}`;
      img.src = run.file.url;
      await img.decode();
      page.style.aspectRatio = `${img.naturalWidth} / ${img.naturalHeight}`;
      page.prepend(img);
    } else if (run.file.kind === 'pdf') {
      const pdfjs = await import('/dashboard/pdf.js');
      pdfjs.GlobalWorkerOptions.workerSrc = '/dashboard/pdf.worker.js';
      const bytes = await (await fetch(run.file.url, { credentials: 'same-origin' })).arrayBuffer();
      const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
      // Pages the server did not know of get a frame of their own (no boxes: the server placed every box).
      const container = pages[0].parentElement;
      for (let n = pages.length + 1; n <= Math.min(pdf.numPages, run.maxPages); n++) {
        const frame = document.createElement('div');
        frame.className = 'page';
        frame.dataset.page = String(n);
        const label = document.createElement('span');
        label.className = 'page-label';
        label.textContent = `page ${n}`;
        frame.append(label);
        container.append(frame);
        pages.push(frame);
      }
      for (const page of pages) {
        const n = Number(page.dataset.page);
        if (n > pdf.numPages) continue;
        const pdfPage = await pdf.getPage(n);
        const viewport = pdfPage.getViewport({ scale: 1.5 });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.setAttribute('aria-label', `Page ${n} of ${run.file.filename}`);
        page.style.aspectRatio = `${viewport.width} / ${viewport.height}`;
        page.prepend(canvas);
        await pdfPage.render({ canvasContext: canvas.getContext('2d'), canvas, viewport }).promise;
        page.classList.add('rendered');
      }
    }
    if (status) status.textContent = '';
    document.body.dataset.pagesReady = 'true';
  } catch (error) {
    if (status) status.textContent = `The pages could not be drawn: ${error.message}`;
    document.body.dataset.pagesReady = 'error';
  }
}

/** A box positioned by fractions of its page. */
function boxOn(page, className, [left, top, width, height], value) {
  const box = document.createElement('div');
  box.className = className;
  box.dataset.testid = className;
  box.style.left = `${left * 100}%`;
  box.style.top = `${top * 100}%`;
  box.style.width = `${Math.max(width * 100, 0.2)}%`;
  box.style.height = `${Math.max(height * 100, 0.2)}%`;
  if (value !== undefined) {
    box.dataset.value = value;
    box.title = value;
  }
  page.append(box);
}

/** A parse's words and tables boxed on their pages; the checkboxes above the pages show or hide each layer. */
function drawLayout(layout) {
  for (const { page: n, words, tables } of layout) {
    const page = document.querySelector(`.page[data-page="${n}"]`);
    if (!page) continue;
    for (const table of tables) {
      if (table.box) boxOn(page, 'table-box', table.box);
      for (const cell of table.cells) boxOn(page, 'cell-box', cell.box, `row ${cell.row + 1}, column ${cell.column + 1}`);
    }
    for (const [text, box] of words) boxOn(page, 'word-box', box, text);
  }
  const container = document.querySelector('.pages');
  for (const toggle of document.querySelectorAll('input[data-layer]')) {
    toggle.addEventListener('change', () => container?.classList.toggle(`hide-${toggle.dataset.layer}`, !toggle.checked));
  }
}

/**
 * A run still going: asks for its status every second until it ends; then the run page reloads
 * (to show the output), a row of the runs list just shows the new status.
 */
function pollStatus(element) {
  const url = element.dataset.live;
  const tick = async () => {
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (response.ok) {
        const body = await response.json();
        // A run reading its document says how far it is (its `progress`).
        element.textContent = body.progress ? `${body.status} · ${body.progress.pages_done} of ${body.progress.pages_total} pages read` : body.status;
        element.className = `badge status-${body.status === 'error' ? 'failed' : body.status}`;
        if (['completed', 'failed', 'cancelled', 'error'].includes(body.status)) {
          if (element.dataset.reload !== undefined) window.location.reload();
          return;
        }
      }
    } catch {
      // try again
    }
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
}
