// The loop settings every animated generator shares: fps and duration, bounded so a synchronous
// render stays within budget (10–300 frames), and the frame count they give.
export interface LoopParams {
  fps: number;
  duration: number;
}

export function loopParamSchema(defaults: LoopParams) {
  return {
    fps: {
      type: 'integer',
      title: 'Frame rate',
      description: 'Frames per second of the animation.',
      minimum: 10,
      maximum: 30,
      default: defaults.fps,
    },
    duration: {
      type: 'number',
      title: 'Duration',
      description: 'Length of one seamless loop, in seconds.',
      minimum: 1,
      maximum: 10,
      default: defaults.duration,
    },
  } as const;
}

export const loopAnimation = (p: LoopParams) => ({ fps: p.fps, frames: Math.max(1, Math.round(p.fps * p.duration)) });
