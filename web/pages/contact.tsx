import { ContactForm } from '../features/contact/components/contact-form';
import { ContactInfoCard } from '../features/contact/components/contact-info-card';
import { FormPageShell } from '../components/layout/page-parts';
import { island } from '../islands/island';

const ContactFormIsland = island('contact-form', ContactForm);
import { useContent } from '../lib/content';
import { usePageMeta } from '../lib/page-meta';

export default function ContactPage() {
  const { firm } = useContent();
  usePageMeta({ title: 'Contact Us', description: 'Send us a message and we will get back to you as soon as possible.' });
  return (
    <FormPageShell title="Contact Us" lead="Send us a message and we will get back to you as soon as possible.">
      <div className="mt-10 grid items-start gap-8 lg:grid-cols-[3fr_2fr]">
        <ContactFormIsland clientPortal={firm.links.clientPortal} />
        <ContactInfoCard />
      </div>
    </FormPageShell>
  );
}
