import { FileText, type LucideIcon } from 'lucide-react';

/**
 * core/content names icons by string (it stays pure data for the worker): this turns a name-to-icon
 * table into the component that draws one (FileText for an unknown name). Each table is its own
 * module, so a page bundles only the icons its table lists.
 */
export function iconLookup(icons: Record<string, LucideIcon>) {
  return function NamedIcon({ name, className = 'h-6 w-6' }: { name: string; className?: string }) {
    const Icon = icons[name] ?? FileText;
    return <Icon className={className} aria-hidden="true" />;
  };
}
