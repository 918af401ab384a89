import { Award, Calculator, Cloud, FileText, Handshake, Lightbulb } from 'lucide-react';
import { iconLookup } from './icon-lookup';

// Only the icons the home page shows (its JavaScript budget is tight); ContentIcon has them all.
export const HomeIcon = iconLookup({
  award: Award,
  calculator: Calculator,
  cloud: Cloud,
  'file-text': FileText,
  handshake: Handshake,
  lightbulb: Lightbulb,
});
