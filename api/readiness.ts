/** Readiness flag shared by /health/ready and the shutdown sequence. */
export interface Readiness {
  isReady(): boolean;
  markDown(): void;
}

export function createReadiness(): Readiness {
  let ready = true;
  return {
    isReady: () => ready,
    markDown: () => {
      ready = false;
    },
  };
}
