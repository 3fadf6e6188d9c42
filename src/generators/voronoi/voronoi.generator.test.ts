// voronoi: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './voronoi.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ colorMode: 'plaid' }],
  variants: [{ colorMode: 'gradient' }, { gap: 0, relax: 0, cells: 400 }, { cells: 3, gap: 40, roundness: 60, relax: 6 }],
});
