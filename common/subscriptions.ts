/** Whether an endpoint's event_types take an event of this type ([] = every event). */
export function subscribed(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.length === 0 || eventTypes.includes(type);
}
