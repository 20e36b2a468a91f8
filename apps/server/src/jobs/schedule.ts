/**
 * When periodic jobs run. A schedule is data (it is stored with the job row, so a changed schedule reschedules the
 * row), and `nextRun` is the only interpretation of it. Times of day are in a named zone, normally an edition's.
 */
import { nextDailyAt } from "../lib/edition-time.ts";

export type Schedule = { everyMinutes: number } | { dailyAt: string; timeZone: string };

/** The first run strictly after `after` (epoch ms). Runs missed while nothing was running collapse into one. */
export function nextRun(schedule: Schedule, after: number): number {
  if ("everyMinutes" in schedule) {
    const step = schedule.everyMinutes * 60_000;
    if (!Number.isInteger(schedule.everyMinutes) || schedule.everyMinutes < 1) {
      throw new RangeError("everyMinutes must be a positive integer");
    }
    // On minute boundaries (of UTC), so instances and restarts agree on the times.
    return Math.floor(after / step) * step + step;
  }
  return nextDailyAt(after, schedule.timeZone, schedule.dailyAt);
}

export function describeSchedule(schedule: Schedule): string {
  return "everyMinutes" in schedule
    ? `every ${schedule.everyMinutes} min`
    : `daily at ${schedule.dailyAt} ${schedule.timeZone}`;
}
