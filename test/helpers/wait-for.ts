import { filter, firstValueFrom, map, take, throwError, timeout, timer } from 'rxjs'

/**
 * How long a wait lasts by default: long, since a busy machine is slow, not wrong (a wait
 * for a condition that will hold costs only the time it takes), and below the tests' own
 * timeout (20 s) so that a failure names what it waited for.
 */
export const WAIT_MS = 15_000

/**
 * Resolves when `condition` holds, checked every 2 ms of real time; rejects after `ms` with
 * an Error naming `what`.
 */
export function waitFor(condition: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  return firstValueFrom(
    timer(0, 2).pipe(
      filter(() => condition()),
      take(1),
      map(() => undefined),
      timeout({
        first: ms,
        with: () => throwError(() => new Error(`timed out after ${ms} ms waiting for ${what}`)),
      }),
    ),
  )
}

/**
 * Resolves when the asynchronous `condition` resolves true, tried again 5 ms of real time
 * after each false; rejects after `ms` with an Error naming `what`.
 */
export async function waitForAsync(
  condition: () => Promise<boolean>,
  what: string,
  ms = WAIT_MS,
): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
