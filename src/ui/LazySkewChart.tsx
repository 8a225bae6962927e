import { lazy, Suspense, type ComponentProps } from 'react';

// Recharts is most of the bundle's weight: load the chart after the verdict and findings are on screen.
const Chart = lazy(() => import('./SkewChart').then((m) => ({ default: m.SkewChart })));

export function SkewChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense
      fallback={
        <section className="card muted" aria-busy="true">
          Loading the skew chart…
        </section>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
