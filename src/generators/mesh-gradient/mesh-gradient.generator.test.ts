// mesh-gradient: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './mesh-gradient.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ points: 17 }],
  variants: [
    { points: 2, grain: 0 },
    { points: 16, softness: 0.3, grain: 0.3 },
  ],
});
