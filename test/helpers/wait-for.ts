import { filter, firstValueFrom, map, take, throwError, timeout, timer } from 'rxjs'

/**
 * Resolves when `condition` holds, checked every 2 ms of real time; rejects after `ms` with
 * an Error naming `what`.
 */
export function waitFor(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
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
  ms = 5_000,
): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
