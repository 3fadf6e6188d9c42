// waves: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './waves.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ layers: 1 }],
  variants: [
    { shape: 'sine', layers: 2, shadow: 0 },
    { layers: 16, frequency: 8, amplitude: 1, horizon: 0.85 },
  ],
});
