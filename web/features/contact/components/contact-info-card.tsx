import { Clock, Mail, MapPin, Phone, Printer, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { island } from '../../../islands/island';
import { firmAddressLine } from '#core/content/firm-facts';
import { useContent } from '../../../lib/content';
import { MapEmbed } from './map-embed';

const MapEmbedIsland = island('map-embed', MapEmbed);

/** One line of the card: an icon, a label, the value. */
function InfoRow({ icon: Icon, label, wide = false, children }: { icon: LucideIcon; label: string; wide?: boolean; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
      <div className={wide ? 'min-w-0 flex-1' : undefined}>
        <p className="font-medium text-slate-900">{label}</p>
        {children}
      </div>
    </li>
  );
}

/** docs/product.md §1.3: address, phone, fax, e-mail, opening hours and the map. */
export function ContactInfoCard() {
  const { firm } = useContent();
  const { address } = firm.contact;
  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Contact Information</h2>
      </CardHeader>
      <CardContent className="space-y-5">
        <ul className="space-y-4 text-slate-700">
          <InfoRow icon={MapPin} label="Address">
            <address className="not-italic">
              {address.street}
              <br />
              {address.city}, {address.region} {address.postalCode}
            </address>
          </InfoRow>
          <InfoRow icon={Phone} label="Phone">
            <a href={firm.contact.phoneHref} className="text-brand-700 underline-offset-2 hover:underline">
              {firm.contact.phone}
            </a>
          </InfoRow>
          <InfoRow icon={Printer} label="Fax">
            <p>{firm.contact.fax}</p>
          </InfoRow>
          <InfoRow icon={Mail} label="Email">
            <a href={`mailto:${firm.contact.email}`} className="break-all text-brand-700 underline-offset-2 hover:underline">
              {firm.contact.email}
            </a>
          </InfoRow>
          <InfoRow icon={Clock} label="Hours" wide>
            <dl className="grid grid-cols-[auto_auto] justify-start gap-x-4 gap-y-1">
              {firm.hours.map((h) => (
                <div key={h.days} className="contents">
                  <dt>{h.days}</dt>
                  {/* May wrap: at 320 px the row is wider than the card (WCAG 1.4.10). */}
                  <dd>{h.time}</dd>
                </div>
              ))}
            </dl>
          </InfoRow>
        </ul>
        <MapEmbedIsland firmName={firm.name} addressLine={firmAddressLine(firm)} mapEmbed={firm.links.mapEmbed} mapLink={firm.links.mapLink} />
      </CardContent>
    </Card>
  );
}
