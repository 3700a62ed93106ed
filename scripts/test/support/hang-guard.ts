/**
 * A hang guard, not a speed check: long enough that a correct test on a loaded laptop never meets it
 * (builds and verify runs took over 90 s with two busy loops beside the suite), so only a real hang does.
 */
export const HANG_GUARD_MS = 300_000;
