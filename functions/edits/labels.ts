/**
 * What a fillable form prints around each of its widgets, read from the page layout (task code only):
 * the label a person reads for the box, the section it sits in, and the column header of a table.
 *
 * - **Left**: the text on the widget's row before it, back to the previous widget. A widget with another
 *   widget right before it on its row (an amount column after a "Nature" column) shares that row's label.
 * - **Above or below**: the text run aligned with the box just over or just under it. Which of the two
 *   is a label is decided for the whole page, by the side more widgets have a tight, aligned label on
 *   (a form that prints "nom" under its boxes does so for all of them); a widget with text on the other
 *   side only takes it.
 * - **Column header**: three or more boxes of the same width stacked into a column are rows of a table;
 *   the text just over the first is their header, and each gets its row number.
 * - **Section**: the nearest line above the label with no widget on its row ("H) désignation de
 *   l'employeur" over "nom:" and "adresse:").
 * - **Check boxes and radio buttons**: the text just right of the box (or just left of it when nothing
 *   is on the right).
 * - **Caption inside**: a box with none of these, whose widget covers a cell with its caption printed in
 *   it ("Name, Vorname" in small print at the cell's top), is labelled by that caption.
 */
import type { Box, Page, Word } from '../documents/doc.ts';

export interface WidgetBox {
  /** In page units, top-left origin. */
  box: Box;
  tick: boolean;
}

export interface PrintedLabel {
  /** The text a person reads as the box's label (may be ""). */
  label: string;
  /** The heading of the section the box is in, or "". */
  section: string;
  /** The title of the block of the form the box is in, over its section ("Donateur"), when there is one. */
  block?: string;
  /** For a box in a table column: its header and 1-based row. */
  column?: { header: string; row: number };
}

interface Run {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A label printed over or under a box is a few words; more, not ending in ":", is a sentence. */
const MAX_LABEL_WORDS = 12;

/** Dot leaders and writing lines ("……", "____") are where values go, not text. */
const LEADER = /^[\s.…_·-]*$/;

const centerY = (b: { top: number; bottom: number }) => (b.top + b.bottom) / 2;
const boxRight = (b: Box) => b.left + b.width;
const boxBottom = (b: Box) => b.top + b.height;

/** Whether a word's box lies inside another box (a point of slack each way). */
const within = (b: Box, outer: Box) => b.left >= outer.left - 1 && boxRight(b) <= boxRight(outer) + 1 && b.top >= outer.top - 1 && boxBottom(b) <= boxBottom(outer) + 1;

/** Whether a box's vertical span and a run's share their middle (the same printed row). */
function sameRow(box: Box, run: { top: number; bottom: number }): boolean {
  const c = centerY(run);
  const h = Math.max(box.height, run.bottom - run.top);
  return Math.abs(c - (box.top + box.height / 2)) < h * 0.6;
}

/** Runs of words on the page: a line split where the gap is wide or a widget stands between. */
function runsOf(page: Page, widgets: WidgetBox[]): Run[] {
  const runs: Run[] = [];
  const insideWidget = (b: Box) => widgets.some((w) => within(b, w.box));
  // Words in printed rows of their own (a layout line may join two close lines of a heading).
  for (const row of printedRows(page.words.filter((w) => w.box && !LEADER.test(w.text) && !insideWidget(w.box!)))) {
    let current: Run | undefined;
    for (const w of row) {
      const b = w.box!;
      const gap = current ? b.left - current.right : 0;
      const blocked = current && widgets.some((x) => x.box.left >= current!.right - 1 && boxRight(x.box) <= b.left + 1 && sameRow(x.box, { top: b.top, bottom: boxBottom(b) }));
      if (!current || gap > Math.max(2 * b.height, 12) || blocked) {
        current = { text: w.text, left: b.left, right: boxRight(b), top: b.top, bottom: boxBottom(b) };
        runs.push(current);
      } else {
        current.text += ` ${w.text}`;
        current.right = Math.max(current.right, boxRight(b));
        current.top = Math.min(current.top, b.top);
        current.bottom = Math.max(current.bottom, boxBottom(b));
      }
    }
  }
  return runs;
}

/** Words grouped into printed rows (middles within half a word's height), each row left to right. */
function printedRows(words: Word[]): Word[][] {
  const rows: Array<{ middle: number; height: number; words: Word[] }> = [];
  for (const w of [...words].sort((a, b) => a.box!.top + a.box!.height / 2 - (b.box!.top + b.box!.height / 2))) {
    const middle = w.box!.top + w.box!.height / 2;
    const row = rows.find((r) => Math.abs(r.middle - middle) < 0.5 * Math.min(r.height, w.box!.height));
    if (row) row.words.push(w);
    else rows.push({ middle, height: w.box!.height, words: [w] });
  }
  return rows.map((r) => r.words.sort((a, b) => a.box!.left - b.box!.left));
}

const clean = (text: string) =>
  text
    .replace(/[.…_]{3,}/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s:]+$/, '')
    .trim();

/** The text run aligned with a box just over (side -1) or under (side 1) it, and its gap. */
function stacked(box: Box, runs: Run[], side: -1 | 1): { run: Run; gap: number; tight: boolean } | undefined {
  let best: { run: Run; gap: number; tight: boolean } | undefined;
  for (const run of runs) {
    // A sentence is no label (a footnote under a rule): many words, not ending as a label does (":").
    if (run.text.split(/\s+/).length > MAX_LABEL_WORDS && !/:\s*$/.test(run.text)) continue;
    const height = run.bottom - run.top;
    const gap = side === 1 ? run.top - boxBottom(box) : box.top - run.bottom;
    if (gap < -Math.min(3, height / 2) || gap > Math.max(1.2 * height, 6)) continue;
    // It starts at the box's left edge or inside the box (a label under a wide box may be centred).
    if (run.left < box.left - 4 || run.left > boxRight(box) - 4) continue;
    // Tight: printed against the box and starting at its left edge (what decides the page's side).
    const tight = Math.abs(run.left - box.left) <= 4 && gap <= Math.max(0.8 * height, 4);
    if (!best || gap < best.gap) best = { run, gap, tight };
  }
  return best;
}

export function printedLabels(page: Page, widgets: WidgetBox[]): PrintedLabel[] {
  const runs = runsOf(page, widgets);
  // A run that labels a box on its row: one starts just after it (or overlaps it).
  const widgetRow = (run: Run) => widgets.some((w) => sameRow(w.box, run) && w.box.left >= run.left - 2 && w.box.left - run.right < 60);
  // Text not beside a box: what can be printed over or under one, or head a section. Large print
  // (the form's title) heads no section.
  const heights = runs.map((r) => r.bottom - r.top).sort((a, b) => a - b);
  const usual = heights[heights.length >> 1] ?? 0;
  const free = runs.filter((r) => !widgetRow(r));
  const headings = free.filter((r) => r.bottom - r.top <= usual * 1.4 && /\p{L}/u.test(r.text));

  // Left of each widget: the runs of its row back to the previous widget.
  const left = widgets.map((w, i) => {
    const row = runs.filter((r) => sameRow(w.box, r) && r.right <= w.box.left + 2);
    const previous = widgets
      .filter((o, j) => j !== i && sameRow(w.box, { top: o.box.top, bottom: boxBottom(o.box) }) && boxRight(o.box) <= w.box.left + 2)
      .reduce((m, o) => Math.max(m, boxRight(o.box)), -Infinity);
    // Back from the box while the gaps stay short of a quarter of the page (text across the page is
    // another column's).
    const own: Run[] = [];
    let edge = w.box.left;
    for (const r of row.filter((r) => r.left >= previous - 1).sort((a, b) => b.right - a.right)) {
      if (edge - r.right > page.width / 4) break;
      own.unshift(r);
      edge = r.left;
    }
    // A line number printed in the form's margin ("8" before "1. cotisations sociales") is not a label.
    const stripped = clean(own.map((r) => r.text).join(' ')).replace(/^\d{1,2}\s+(?=\S)/, '');
    // Text without a letter (a line number, a footnote mark) is no label.
    const text = /\p{L}/u.test(stripped) ? stripped : '';
    return { text, runs: own, previous };
  });
  // A widget right after another on its row (no text between) shares that row's label: an amount box
  // after a "Nature" box.
  const rowLabel = (i: number, depth = 0): string => {
    const own = left[i]!;
    if (own.text !== '' || depth > 10 || own.previous === -Infinity) return own.text;
    const w = widgets[i]!;
    if (w.box.left - own.previous > 2 * w.box.height) return '';
    const j = widgets.findIndex((o) => boxRight(o.box) === own.previous && sameRow(w.box, { top: o.box.top, bottom: boxBottom(o.box) }));
    return j >= 0 ? rowLabel(j, depth + 1) : '';
  };

  // Over or under: the side on which more boxes have a label printed tight against them and aligned
  // with their left edge is the page's (a small label between two rows is near both).
  const over = widgets.map((w) => (w.tick ? undefined : stacked(w.box, free, -1)));
  const under = widgets.map((w) => (w.tick ? undefined : stacked(w.box, free, 1)));
  const overVotes = over.filter((o) => o?.tight).length;
  const underVotes = under.filter((u) => u?.tight).length;
  const labelsUnder = underVotes > overVotes;
  const vertical = widgets.map((_, i) => {
    const first = labelsUnder ? under[i] : over[i];
    const second = labelsUnder ? over[i] : under[i];
    // A run that is the nearer label of another box on the page's side is that box's.
    const claimed = (run: Run) => widgets.some((_, j) => j !== i && (labelsUnder ? under[j] : over[j])?.run === run);
    if (first) return first.run;
    // The other side only when printed close against the box (a date box captioned "Datum" under it).
    if (second && second.gap <= 0.8 * (second.run.bottom - second.run.top) && !claimed(second.run)) return second.run;
    return undefined;
  });

  // Columns of a table: 3+ boxes of one width stacked close under each other.
  const columns = new Map<number, { header: string; row: number }>();
  const used = new Set<number>();
  const byTop = widgets.map((w, i) => ({ w, i })).sort((a, b) => a.w.box.top - b.w.box.top);
  for (const { w, i } of byTop) {
    if (used.has(i) || w.tick) continue;
    const column = [i];
    let last = w.box;
    for (const o of byTop) {
      if (o.i === i || used.has(o.i) || o.w.tick) continue;
      const b = o.w.box;
      if (Math.abs(b.left - last.left) > 2 || Math.abs(b.width - last.width) > 2 || b.top <= last.top) continue;
      if (b.top - boxBottom(last) > last.height * 0.8) continue;
      column.push(o.i);
      last = b;
    }
    // Without a header printed over its first box, a stack of boxes is a list, not a table.
    const header = over[i] && over[i]!.gap <= 1.2 * (over[i]!.run.bottom - over[i]!.run.top) ? clean(over[i]!.run.text) : '';
    if (column.length < 3 || header === '') continue;
    column.forEach((index, row) => {
      used.add(index);
      columns.set(index, { header, row: row + 1 });
    });
  }

  // A table's cells are labelled by the column's header and their row, never by the text around a
  // cell (the sentence printed under a table's last row is no label of it).
  for (const [i, { row }] of columns) if (row > 1) vertical[i] = undefined;

  // The section: the nearest free line above the label, starting about where the label starts (for a
  // tick box, anywhere over its row); never a box's own label over or under it.
  const labelRuns = new Set(vertical.filter((run) => run !== undefined));
  const section = widgets.map((w, i) => {
    const from = Math.min(w.box.left, ...left[i]!.runs.map((r) => r.left));
    const reach = w.tick ? page.width * 0.3 : 40;
    const candidates = headings
      .filter((r) => r.bottom <= w.box.top + 1 && r.left <= Math.max(from + 10, w.tick ? boxRight(w.box) : 0) && r.right >= from - 2 && r.left >= from - reach && !labelRuns.has(r))
      .filter((r) => w.box.top - r.bottom < 5 * (r.bottom - r.top))
      .sort((a, b) => b.bottom - a.bottom);
    const nearest = candidates[0];
    if (!nearest) return '';
    // A heading printed on two lines.
    const before = candidates.find((r) => r !== nearest && nearest.top - r.bottom < 0.6 * (r.bottom - r.top) && Math.abs(r.left - nearest.left) < 4);
    return clean(before ? `${before.text} ${nearest.text}` : nearest.text);
  });

  // A box under others of its block (same left edge, close below, no heading between) is in their section.
  const topDown = widgets.map((_, i) => i).sort((a, b) => widgets[a]!.box.top - widgets[b]!.box.top);
  for (const i of topDown) {
    const w = widgets[i]!;
    if (section[i] !== '' || w.tick) continue;
    const above = topDown
      .filter((j) => j !== i && !widgets[j]!.tick && section[j] !== '' && Math.abs(widgets[j]!.box.left - w.box.left) <= 3 && boxBottom(widgets[j]!.box) <= w.box.top + 1 && w.box.top - boxBottom(widgets[j]!.box) <= 3 * w.box.height)
      .sort((a, b) => widgets[b]!.box.top - widgets[a]!.box.top)[0];
    if (above === undefined) continue;
    const heading = headings.some((r) => r.top >= boxBottom(widgets[above]!.box) - 1 && r.bottom <= w.box.top + 1 && r.right > w.box.left - 60 && r.left < boxRight(w.box));
    if (!heading) section[i] = section[above]!;
  }

  const ticks = tickLabels(widgets, runs);
  const labels = widgets.map((w, i) => (w.tick ? (ticks.get(i) ?? '') : clean([rowLabel(i), vertical[i]?.text ?? ''].filter((t) => t !== '').join(' ')) || captionInside(page, w.box)));
  // A box with no label of its own right under a labelled box of the same extent, nothing printed
  // between: the next line of the same field ("adresse", then "adresse (line 2)").
  for (const i of topDown) {
    const w = widgets[i]!;
    if (w.tick || labels[i] !== '' || columns.has(i)) continue;
    const above = topDown.find(
      (j) =>
        j !== i &&
        labels[j] !== '' &&
        !widgets[j]!.tick &&
        w.box.left <= widgets[j]!.box.left + 3 &&
        Math.abs(boxRight(widgets[j]!.box) - boxRight(w.box)) <= 3 &&
        w.box.top - boxBottom(widgets[j]!.box) >= -1 &&
        w.box.top - boxBottom(widgets[j]!.box) <= w.box.height,
    );
    if (above === undefined) continue;
    const between = runs.some((r) => r.top >= boxBottom(widgets[above]!.box) - 1 && r.bottom <= w.box.top + 1 && r.right > w.box.left && r.left < boxRight(w.box));
    if (between) continue;
    const m = / \(line (\d+)\)$/.exec(labels[above]!);
    labels[i] = `${labels[above]!.replace(/ \(line \d+\)$/, '')} (line ${m ? Number(m[1]) + 1 : 2})`;
    section[i] = section[above]!;
  }
  // The block a box is in, over its section: the title of the part of the form it belongs to.
  const titles = blockTitles(page, runs, free, usual, labelRuns);
  const blocks = widgets.map((w, i) => {
    const title = titles.find((t) => t.run.bottom <= w.box.top + 1 && w.box.top < t.end && (t.centred || (w.box.left >= t.run.left - TITLE.columnSlack && w.box.left < t.run.left + page.width / 2)));
    const own = section[i]!;
    return !title || own.includes(title.text) || (own !== '' && title.text.includes(own)) ? '' : title.text;
  });
  return widgets.map((_, i) => {
    const column = columns.get(i);
    const block = blocks[i] ? { block: blocks[i]! } : {};
    return column ? { label: labels[i]!, section: section[i]!, column, ...block } : { label: labels[i]!, section: section[i]!, ...block };
  });
}

/**
 * The caption a form prints inside a box the widget covers whole ("Name, Vorname" in small print at the
 * top of its cell): the box's label when nothing around it is one. Words inside widgets are no run of
 * the page's (they label no other box).
 */
function captionInside(page: Page, box: Box): string {
  const inside = page.words.filter((w) => w.box && !LEADER.test(w.text) && within(w.box, box));
  const text = clean(printedRows(inside).map((row) => row.map((w) => w.text).join(' ')).join(' '));
  return /\p{L}/u.test(text) ? text : '';
}

/**
 * A block's title is a few words on a line of their own, not a label (no ending ":"): at most
 * `maxWords`, in print `largerPrint` times the usual height or centred within `centredWithin` of the
 * page's width. Its block ends at a rule across `ruleSpan` of the page; a title not centred heads the
 * boxes starting right of its own start (less `columnSlack`) and within half a page.
 */
const TITLE = { maxWords: 6, largerPrint: 1.15, centredWithin: 0.04, ruleSpan: 0.5, columnSlack: 10 } as const;

/**
 * The titles of a page's blocks, nearest first for any point under them ("Donateur" over a frame of
 * "Nom", "Adresse", "Code postal"): a short line alone on its row, not ending in ":", set in larger
 * print than the page's usual or centred on the page. A title's block runs down to the first rule across
 * half the page below its own line (the frame's bottom), or to the page's end.
 */
function blockTitles(page: Page, runs: Run[], free: Run[], usual: number, labelRuns: Set<Run>): Array<{ run: Run; text: string; centred: boolean; end: number }> {
  const alone = (run: Run) => !runs.some((o) => o !== run && Math.abs(centerY(o) - centerY(run)) < 0.5 * Math.min(o.bottom - o.top, run.bottom - run.top));
  const across = (page.rules ?? []).filter((r) => Math.abs(r.y1 - r.y2) < 1 && Math.abs(r.x2 - r.x1) >= TITLE.ruleSpan * page.width).map((r) => (r.y1 + r.y2) / 2);
  const out: Array<{ run: Run; text: string; centred: boolean; end: number }> = [];
  for (const run of free) {
    const text = clean(run.text);
    if (labelRuns.has(run) || /:\s*$/.test(run.text) || text.split(/\s+/).length > TITLE.maxWords || !/\p{L}{2}/u.test(text) || !alone(run)) continue;
    const centred = Math.abs((run.left + run.right) / 2 - page.width / 2) <= TITLE.centredWithin * page.width;
    if (!centred && run.bottom - run.top < TITLE.largerPrint * usual) continue;
    const height = run.bottom - run.top;
    const end = Math.min(page.height, ...across.filter((y) => y > run.bottom + 2 * height));
    out.push({ run, text, centred, end });
  }
  return out.sort((a, b) => b.run.bottom - a.run.bottom);
}

/** Tick boxes' texts: the run beside each on its row, on the side most boxes of the page have theirs. */
function tickLabels(widgets: WidgetBox[], runs: Run[]): Map<number, string> {
  const near = widgets.map((w, i) => {
    if (!w.tick) return undefined;
    const reach = 3 * w.box.width + 12;
    const row = runs.filter((r) => sameRow(w.box, r));
    const right = row.filter((r) => r.left >= boxRight(w.box) - 2 && r.left - boxRight(w.box) < reach).sort((a, b) => a.left - b.left)[0];
    const left = row.filter((r) => r.right <= w.box.left + 2 && w.box.left - r.right < reach).sort((a, b) => b.right - a.right)[0];
    return { i, right, left, rightGap: right ? right.left - boxRight(w.box) : Infinity, leftGap: left ? w.box.left - left.right : Infinity };
  });
  let rightVotes = 0;
  let leftVotes = 0;
  for (const n of near) {
    if (!n || (n.rightGap === Infinity && n.leftGap === Infinity)) continue;
    if (n.rightGap <= n.leftGap) rightVotes++;
    else leftVotes++;
  }
  const out = new Map<number, string>();
  for (const n of near) {
    if (!n) continue;
    const run = leftVotes > rightVotes ? (n.left ?? n.right) : (n.right ?? n.left);
    out.set(n.i, run ? clean(run.text) : '');
  }
  return out;
}
