/**
 * Consolidation of votes (API §4–§5), independent of how votes are made: the local engine and LLM
 * providers share these functions.
 */
import { describe, expect, it } from 'vitest';
import { consolidateClassification, consolidatePartitions, consolidateSplits, normalizeKey } from '../../../functions/models/shared/consensus.ts';

const categories = ['invoice', 'receipt', 'contract'];
const vote = (category: string, scores: number[]) => ({
  choice: { category, reasoning: `because ${category} ${scores.join(',')}` },
  scores: Object.fromEntries(categories.map((c, i) => [c, scores[i]!])),
});

describe('classification', () => {
  it('the most-voted category wins; likelihood is its vote share; scores average to 1', () => {
    const result = consolidateClassification([vote('invoice', [0.6, 0.3, 0.1]), vote('receipt', [0.3, 0.6, 0.1]), vote('invoice', [0.7, 0.2, 0.1])], categories);
    expect(result.output.category).toBe('invoice');
    expect(result.output.reasoning).toBe('because invoice 0.7,0.2,0.1');
    expect(result.consensus.likelihoods).toBeCloseTo(2 / 3);
    expect(result.consensus.choices.map((c) => c.category)).toEqual(['invoice', 'receipt', 'invoice']);
    expect(Object.values(result.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });

  it('a tie goes to the highest summed score', () => {
    const result = consolidateClassification([vote('invoice', [0.5, 0.4, 0.1]), vote('receipt', [0.1, 0.8, 0.1])], categories);
    expect(result.output.category).toBe('receipt');
    expect(result.consensus.likelihoods).toBe(0.5);
  });

  it('votes that carry their own likelihood count by it: the winner\'s votes\' likelihoods over all votes', () => {
    const sure = (category: string, confidence: number) => ({ ...vote(category, category === 'invoice' ? [0.6, 0.3, 0.1] : [0.3, 0.6, 0.1]), confidence });
    const result = consolidateClassification([sure('invoice', 0.9), sure('receipt', 0.8), sure('invoice', 0.6)], categories);
    expect(result.output.category).toBe('invoice');
    // (0.9 + 0.6) / 3, not the share of votes (2/3): two unsure votes for a category are no sure answer.
    expect(result.consensus.likelihoods).toBeCloseTo(0.5, 9);
  });

  it('one vote: the likelihood is the model confidence; a vote without scores counts as certain', () => {
    expect(consolidateClassification([vote('contract', [0.1, 0.2, 0.7])], categories).consensus.likelihoods).toBeCloseTo(0.7);
    const bare = consolidateClassification([{ choice: { category: 'receipt', reasoning: 'r' } }], categories);
    expect(bare.scores).toEqual({ invoice: 0, receipt: 1, contract: 0 });
    expect(bare.consensus.likelihoods).toBe(1);
  });
});

describe('splits', () => {
  const multiple = (name: string) => name === 'invoice';

  it('page by page majority; instances where most votes cut; every page once, ordered by first page', () => {
    const votes = [
      { entries: [{ name: 'invoice', pages: [1, 2] }, { name: 'invoice', pages: [3] }, { name: 'contract', pages: [4, 5] }], confidence: 0.9 },
      { entries: [{ name: 'invoice', pages: [1, 2] }, { name: 'invoice', pages: [3] }, { name: 'contract', pages: [5] }, { name: 'other', pages: [4] }], confidence: 0.8 },
      { entries: [{ name: 'invoice', pages: [1, 2, 3] }, { name: 'contract', pages: [4, 5] }], confidence: 0.7 },
    ];
    const result = consolidateSplits(votes, { pageCount: 5, multipleInstances: multiple });
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1, 2] },
      { name: 'invoice', pages: [3] },
      { name: 'contract', pages: [4, 5] },
    ]);
    expect(result.consensus.choices).toHaveLength(3);
    expect(result.consensus.likelihoods[2]!.pages.map((x) => +x.toFixed(3))).toEqual([0.667, 1]);
    expect(result.consensus.likelihoods[0]!.name).toBe(1);
  });

  it('a tied page goes to the more confident vote; pages no vote covers go to "other"', () => {
    const votes = [
      { entries: [{ name: 'invoice', pages: [1] }, { name: 'contract', pages: [2] }], confidence: 0.6, pageConfidence: [0.9, 0.4] },
      { entries: [{ name: 'invoice', pages: [1] }, { name: 'receipt', pages: [2] }], confidence: 0.5, pageConfidence: [0.9, 0.8] },
    ];
    const result = consolidateSplits(votes, { pageCount: 3, multipleInstances: () => false });
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1] },
      { name: 'receipt', pages: [2] },
      { name: 'other', pages: [3] },
    ]);
  });

  it("votes that give each page a likelihood count by it: the winner's votes' likelihoods for the page over all votes", () => {
    const votes = [
      { entries: [{ name: 'contract', pages: [1, 2] }], confidence: 0.8, pageConfidence: [0.9, 0.6] },
      { entries: [{ name: 'contract', pages: [1, 2] }], confidence: 0.7, pageConfidence: [0.8, 0.5] },
      { entries: [{ name: 'contract', pages: [1] }, { name: 'other', pages: [2] }], confidence: 0.7, pageConfidence: [0.7, 0.9] },
    ];
    const result = consolidateSplits(votes, { pageCount: 2, multipleInstances: () => false });
    expect(result.output).toEqual([{ name: 'contract', pages: [1, 2] }]);
    // Page 1: (0.9 + 0.8 + 0.7) / 3; page 2: (0.6 + 0.5) / 3, not the shares of votes (1 and 2/3).
    expect(result.consensus.likelihoods[0]!.pages.map((x) => +x.toFixed(3))).toEqual([0.8, 0.367]);
  });

  it('without multiple instances one entry holds all pages of a name, contiguous or not', () => {
    const result = consolidateSplits(
      [{ entries: [{ name: 'contract', pages: [1] }, { name: 'invoice', pages: [2] }, { name: 'contract', pages: [3] }], confidence: 0.5, pageConfidence: [0.5, 0.6, 0.7] }],
      { pageCount: 3, multipleInstances: () => false },
    );
    expect(result.output).toEqual([
      { name: 'contract', pages: [1, 3] },
      { name: 'invoice', pages: [2] },
    ]);
    expect(result.consensus.likelihoods).toEqual([
      { name: 0.6, pages: [0.5, 0.7] },
      { name: 0.6, pages: [0.6] },
    ]);
  });

  it('one vote keeps its instances as given, even when not contiguous', () => {
    const result = consolidateSplits(
      [{ entries: [{ name: 'invoice', pages: [1, 3] }, { name: 'invoice', pages: [2] }], confidence: 0.8 }],
      { pageCount: 3, multipleInstances: multiple },
    );
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1, 3] },
      { name: 'invoice', pages: [2] },
    ]);
  });
});

describe('partitions', () => {
  it('keys compare without case and punctuation, printed as most votes printed them', () => {
    expect(normalizeKey('INV-5101')).toBe(normalizeKey('inv 5101'));
    const result = consolidatePartitions(
      [
        { entries: [{ key: 'INV-1', pages: [1, 2] }], confidence: 0.9 },
        { entries: [{ key: 'INV-1', pages: [1, 2] }], confidence: 0.8 },
        { entries: [{ key: 'inv 1', pages: [1] }], confidence: 0.95 },
      ],
      { pageCount: 2, allowOverlap: true },
    );
    expect(result.output).toEqual([{ key: 'INV-1', pages: [1, 2] }]);
    expect(result.consensus.likelihoods[0]!.pages.map((x) => +x.toFixed(3))).toEqual([1, 0.667]);
    expect(result.consensus.choices).toHaveLength(3);
  });

  it('a shared page keeps both keys with overlap, the majority key without', () => {
    const votes = [
      { entries: [{ key: 'A', pages: [1, 2] }, { key: 'B', pages: [2, 3] }], confidence: 0.9 },
      { entries: [{ key: 'A', pages: [1, 2] }, { key: 'B', pages: [2, 3] }], confidence: 0.9 },
      { entries: [{ key: 'A', pages: [1] }, { key: 'B', pages: [2, 3] }], confidence: 0.9 },
    ];
    expect(consolidatePartitions(votes, { pageCount: 3, allowOverlap: true }).output).toEqual([
      { key: 'A', pages: [1, 2] },
      { key: 'B', pages: [2, 3] },
    ]);
    expect(consolidatePartitions(votes, { pageCount: 3, allowOverlap: false }).output).toEqual([
      { key: 'A', pages: [1] },
      { key: 'B', pages: [2, 3] },
    ]);
  });

  it('a page most votes leave out stays out; no key at all gives []', () => {
    const votes = [
      { entries: [{ key: 'A', pages: [2] }], confidence: 0.9 },
      { entries: [{ key: 'A', pages: [1, 2] }], confidence: 0.6 },
      { entries: [{ key: 'A', pages: [2] }], confidence: 0.9 },
    ];
    expect(consolidatePartitions(votes, { pageCount: 2, allowOverlap: true }).output).toEqual([{ key: 'A', pages: [2] }]);
    const none = consolidatePartitions([{ entries: [], confidence: 0 }, { entries: [], confidence: 0 }], { pageCount: 4, allowOverlap: true });
    expect(none.output).toEqual([]);
    expect(none.consensus).toEqual({ likelihoods: [], choices: [[], []] });
  });
});
