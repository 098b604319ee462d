import { useLocation } from 'react-router';

/** Shows where the memory router is, so tests can assert navigation. */
export function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}
