// topography: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './topography.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ fill: 'yes' }],
  variants: [{ fill: true }, { levels: 3, majorEvery: 0, detail: 1, warp: 0 }, { levels: 40, detail: 5, warp: 1, scale: 6, fill: true }],
});
