import { ContactSalesPage } from "../../src/features/support/components/contact-sales-page.tsx";

export default function ContactSalesRoute() {
  return <ContactSalesPage />;
}
