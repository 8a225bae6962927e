import { lazy, Suspense, type ComponentProps } from 'react';
import { useT } from './i18n';

// Recharts is most of the bundle's weight: load the chart after the verdict and findings are on screen.
const Chart = lazy(() => import('./SkewChart').then((m) => ({ default: m.SkewChart })));

export function SkewChart(props: ComponentProps<typeof Chart>) {
  const t = useT();
  return (
    <Suspense
      fallback={
        <section className="card muted" aria-busy="true">
          {t('skew.loading')}
        </section>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
