import { Clock, Mail, MapPin, Phone, Printer } from 'lucide-react';
import { firm } from '../../../content/firm';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';
import { MapEmbed } from './map-embed';

/** docs/product.md §1.3: address, phone, fax, e-mail, opening hours and the map. */
export function ContactInfoCard() {
  const { address } = firm.contact;
  return (
    <Card>
      <CardHeader>
        <h2 className="text-2xl font-semibold text-brand-800">Contact Information</h2>
      </CardHeader>
      <CardContent className="space-y-5">
        <ul className="space-y-4 text-slate-700">
          <li className="flex gap-3">
            <MapPin className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Address</p>
              <address className="not-italic">
                {address.street}
                <br />
                {address.city}, {address.region} {address.postalCode}
              </address>
            </div>
          </li>
          <li className="flex gap-3">
            <Phone className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Phone</p>
              <a href={firm.contact.phoneHref} className="text-brand-700 underline-offset-2 hover:underline">
                {firm.contact.phone}
              </a>
            </div>
          </li>
          <li className="flex gap-3">
            <Printer className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Fax</p>
              <p>{firm.contact.fax}</p>
            </div>
          </li>
          <li className="flex gap-3">
            <Mail className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Email</p>
              <a href={`mailto:${firm.contact.email}`} className="break-all text-brand-700 underline-offset-2 hover:underline">
                {firm.contact.email}
              </a>
            </div>
          </li>
          <li className="flex gap-3">
            <Clock className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div className="flex-1">
              <p className="font-medium text-slate-900">Hours</p>
              <dl className="grid grid-cols-[auto_auto] justify-start gap-x-4 gap-y-1">
                {firm.hours.map((h) => (
                  <div key={h.days} className="contents">
                    <dt>{h.days}</dt>
                    <dd className="whitespace-nowrap">{h.time}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </li>
        </ul>
        <MapEmbed />
      </CardContent>
    </Card>
  );
}
