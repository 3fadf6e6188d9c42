// linear-gradient: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './linear-gradient.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ kind: 'diamond' }],
  variants: [
    { kind: 'radial' },
    { kind: 'conic', angle: 30, centerX: 0.2 },
    { kind: 'linear', interpolation: 'srgb', grain: 0, angle: 0 },
    { kind: 'conic', variation: 0 },
  ],
});
