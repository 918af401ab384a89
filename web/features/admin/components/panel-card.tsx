import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';

/**
 * An admin panel's card: its heading (which labels the card, with an icon when given) and a line of
 * help under it when given, then `children` (its CardContent).
 */
export function PanelCard({ id, title, icon: Icon, intro, children }: { id: string; title: string; icon?: LucideIcon; intro?: ReactNode; children: ReactNode }) {
  return (
    <Card aria-labelledby={id}>
      <CardHeader className="pb-3">
        <h2 id={id} className={`${Icon ? 'flex items-center gap-2 ' : ''}text-lg font-semibold text-brand-800`}>
          {Icon && <Icon className="h-5 w-5" aria-hidden="true" />}
          {title}
        </h2>
        {intro && <p className="text-sm text-slate-600">{intro}</p>}
      </CardHeader>
      {children}
    </Card>
  );
}
