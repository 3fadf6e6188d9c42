// isometric: the shared generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderInput, stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './isometric.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ cells: 3 }, { cells: 49 }, { maxHeight: 11 }, { towers: 0.6 }, { shade: 2 }],
  variants: [
    { cells: 4, maxHeight: 0, towers: 0, shade: 0 },
    { cells: 48, maxHeight: 10, towers: 0.5, shade: 1 },
    { palette: ['#ffffff', '#000000'], background: '#ff0000' },
  ],
});

test('isometric: flat tiles when maxHeight is 0 and there are no towers (every column the same height)', () => {
  const svg = gen.svg!(renderInput(gen, 5, { maxHeight: 0, towers: 0 }));
  const colours = new Set(svg.match(/fill="#[0-9a-f]{6}"/g));
  // background + top + two sides, all tiles at level 0.
  assert.equal(colours.size, 4);
});
