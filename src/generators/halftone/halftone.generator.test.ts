// halftone: the shared generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderInput } from '../../../test/unit/generators/generator-contract.ts';
import gen from './halftone.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ cells: 7 }, { cells: 121 }, { angle: 91 }, { shape: 'star' }, { contrast: -0.1 }],
  variants: [
    { cells: 8, shape: 'square', contrast: 0 },
    { cells: 120, angle: 90, shape: 'diamond', contrast: 1 },
    { palette: ['#000000', '#ffffff'], background: '#808080', angle: 0 },
  ],
});

test('halftone: more cells give more dots', () => {
  const count = (cells: number) => (gen.svg!(renderInput(gen, 3, { cells })).match(/<circle/g) ?? []).length;
  assert.ok(count(60) > count(20) * 4);
});
