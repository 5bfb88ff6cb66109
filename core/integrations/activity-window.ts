/** The activity route and the integration's summary look this far back (compat-reference §23: windowHours 24). */
export const ACTIVITY_WINDOW_HOURS = 24;

export const activitySince = (now: Date): Date => new Date(now.getTime() - ACTIVITY_WINDOW_HOURS * 60 * 60 * 1000);
