import { CheckCircle2, Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Fragment } from 'react';
import { useContent } from '../../../lib/content';
import { reasonsToBook, scheduleServiceGroups } from '#core/content/schedule';
import { Card, CardContent, CardHeader } from '../../../components/ui/card';

/** docs/product.md §3: the Schedule page's contact info card: phone, e-mail, office hours, address. */
export function ScheduleContactCard() {
  const { firm } = useContent();
  const { address } = firm.contact;
  const rows = [
    { icon: Phone, label: 'Phone', body: <a href={firm.contact.phoneHref} className="text-brand-700 hover:underline">{firm.contact.phone}</a> },
    { icon: Mail, label: 'Email', body: <a href={`mailto:${firm.contact.email}`} className="break-all text-brand-700 hover:underline">{firm.contact.email}</a> },
    {
      icon: Clock,
      label: 'Office Hours',
      body: firm.hours.map((h, index) => (
        <Fragment key={h.days}>
          {index > 0 && <br />}
          {`${h.days}: ${h.time}`}
        </Fragment>
      )),
    },
    {
      icon: MapPin,
      label: 'Office',
      body: (
        <address className="not-italic">
          {address.street}
          <br />
          {address.city}, {address.region} {address.postalCode}
        </address>
      ),
    },
  ];
  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-brand-800">Contact Information</h2>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4 text-sm text-slate-700">
          {rows.map(({ icon: Icon, label, body }) => (
            <li key={label} className="flex gap-3">
              <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
              <div>
                <p className="font-medium text-slate-900">{label}</p>
                <div>{body}</div>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** docs/product.md §3: why book a consultation. */
export function ReasonsToBook() {
  return (
    <Card className="bg-brand-50">
      <CardHeader>
        <h2 className="text-xl font-semibold text-brand-800">Why Schedule With Us?</h2>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          {reasonsToBook.map((reason) => (
            <li key={reason.title} className="flex gap-3">
              <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
              <div>
                <p className="font-medium text-slate-900">{reason.title}</p>
                <p className="text-sm text-slate-600">{reason.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** docs/product.md §3: the services summary in two groups, Tax Services and Business Services. */
export function ServicesSummary() {
  return (
    <section aria-labelledby="schedule-services-heading">
      <h2 id="schedule-services-heading" className="text-2xl font-semibold text-brand-800">
        Services We Offer
      </h2>
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        {scheduleServiceGroups.map((group) => (
          <Card key={group.title}>
            <CardHeader>
              <h3 className="text-lg font-semibold text-slate-900">{group.title}</h3>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
                {group.services.map((service) => (
                  <li key={service} className="flex items-center gap-2">
                    <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-accent-500" aria-hidden="true" />
                    {service}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
