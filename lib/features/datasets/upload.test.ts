import { describe, expect, it } from 'vitest';
import { parseUploadBody } from './upload';

const body = (format: string, text: string) => JSON.stringify({ format, text });

describe('items from a file', () => {
  it('reads JSON Lines, one item a line, skipping blank lines', () => {
    const items = parseUploadBody(body('jsonl', '{"input": {"q": "a"}, "expectedOutput": "A"}\n\n{"id": "x", "input": "b"}\r\n'));
    expect(items.map((i) => [i.id, i.input, i.expectedOutput])).toEqual([
      [null, { q: 'a' }, 'A'],
      ['x', 'b', null],
    ]);
  });

  it('reads CSV with JSON-parsed cells where they parse, quoted newlines and a BOM', () => {
    const csv = '\uFEFFinput,expectedOutput,metadata\n"{""q"": 1}",42,\n"two\nlines","plain text","{""tier"": ""gold""}"\n';
    const items = parseUploadBody(body('csv', csv));
    expect(items.map((i) => [i.input, i.expectedOutput, i.metadata])).toEqual([
      [{ q: 1 }, 42, null],
      ['two\nlines', 'plain text', { tier: 'gold' }],
    ]);
  });

  it.each([
    ['jsonl', '{"input": 1}\nnot json', 'line 2 is not JSON'],
    ['jsonl', '{"expectedOutput": 1}', 'line 1.input is required (any JSON)'],
    ['csv', 'question,answer\nq,a', 'The CSV needs an "input" column'],
    ['csv', 'input,extra\nq,a', 'Unknown CSV column "extra": use id, input, expectedOutput, expectedDecisions, metadata, sourceTraceId'],
    ['csv', 'input\n', 'The file holds no items'],
    ['jsonl', '{"id": "a", "input": 1}\n{"id": "a", "input": 2}', 'item 2: id "a" appears more than once in the file'],
    ['xml', '<a/>', 'format must be "jsonl" or "csv"'],
  ])('refuses a %s file: %s', (format, text, error) => {
    expect(() => parseUploadBody(body(format, text))).toThrow(error);
  });
});
