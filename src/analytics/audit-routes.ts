/**
 * Display labels the dashboard sends as `route` (decision-engine §7.4), mapped to the route values
 * stored on domain rows. Keys are lower-cased; any other value is matched as a stored route.
 */
const routeLabels: Readonly<Record<string, readonly string[]>> = {
  'decide gateway': ['decide_gateway'],
  'update gateway': ['update_gateway_score'],
  'update gateway score': ['update_gateway_score'],
  'update score': ['update_score'],
  'rule evaluate': ['routing_evaluate'],
  'routing evaluate': ['routing_evaluate'],
};

/** The stored route values a `route` parameter selects. */
export function resolveRouteFilter(route: string): readonly string[] {
  return routeLabels[route.trim().toLowerCase()] ?? [route];
}
