// blob: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './blob.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ points: 2 }],
  variants: [
    { layers: 1, shadow: 0, irregularity: 0 },
    { layers: 6, points: 16, irregularity: 1, spread: 1, size: 1.2 },
  ],
});
