import {
  Award,
  BookOpen,
  Briefcase,
  Building2,
  Calculator,
  ClipboardList,
  Cloud,
  FileCheck,
  FileText,
  Globe,
  GraduationCap,
  Handshake,
  HeartHandshake,
  House,
  Lightbulb,
  Monitor,
  ShieldCheck,
  TrendingUp,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';

// web/content names icons by string (it stays pure data for the worker); this maps them.
const icons: Record<string, LucideIcon> = {
  award: Award,
  'book-open': BookOpen,
  briefcase: Briefcase,
  building: Building2,
  calculator: Calculator,
  'clipboard-list': ClipboardList,
  cloud: Cloud,
  'file-check': FileCheck,
  'file-text': FileText,
  globe: Globe,
  'graduation-cap': GraduationCap,
  handshake: Handshake,
  'heart-handshake': HeartHandshake,
  home: House,
  lightbulb: Lightbulb,
  monitor: Monitor,
  'shield-check': ShieldCheck,
  'trending-up': TrendingUp,
  users: Users,
  wallet: Wallet,
};

export function ContentIcon({ name, className = 'h-6 w-6' }: { name: string; className?: string }) {
  const Icon = icons[name] ?? FileText;
  return <Icon className={className} aria-hidden="true" />;
}
