import { Award, Calculator, Cloud, FileText, Handshake, Lightbulb, type LucideIcon } from 'lucide-react';

// Only the icons the home page shows (its JavaScript budget is tight); ContentIcon has them all.
const icons: Record<string, LucideIcon> = {
  award: Award,
  calculator: Calculator,
  cloud: Cloud,
  'file-text': FileText,
  handshake: Handshake,
  lightbulb: Lightbulb,
};

export function HomeIcon({ name, className = 'h-6 w-6' }: { name: string; className?: string }) {
  const Icon = icons[name] ?? FileText;
  return <Icon className={className} aria-hidden="true" />;
}
