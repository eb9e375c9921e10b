export interface InfoSection {
  heading: string;
  paragraphs: string[];
}

export interface InfoDocument {
  title: string;
  updated?: string;
  intro: string;
  sections: InfoSection[];
}

export const ABOUT: InfoDocument = {
  title: 'About FuelDesk',
  intro:
    'FuelDesk is the back office for companies that sell and deliver fuel and other goods. It brings the work of the office, the yard and the truck into one place, so an order taken in the morning becomes a delivery ticket, an invoice and a posted entry in your accounts without being typed twice.',
  sections: [
    {
      heading: 'What it covers',
      paragraphs: [
        'Sales and receivables: customers with their delivery locations and tanks, sales orders with a delivery workflow, delivery tickets and invoices.',
        'Purchasing and payables: purchase orders, supplier bills with automated parsing, supplier buying prices, price quotes received by email, and the terminals where product is loaded.',
        'Dispatch and logistics: drivers, trucks and other company assets, yards and regions, a dispatch center, and a simple driver portal for the day’s orders.',
        'Pricing: pricing rules, taxes and tax rates, fees, payment terms and methods, and per-customer prices.',
        'Email and integrations: invoices and delivery tickets sent from FuelDesk, a contact book with service subscriptions, an accounting integration and a mail-provider sign-in.',
      ],
    },
    {
      heading: 'Who it is for',
      paragraphs: [
        'Office staff who take orders, price them and bill them; dispatchers who plan routes and assign trucks; drivers who need a clear list of today’s stops; and owners who want to see what was sold and delivered.',
      ],
    },
    {
      heading: 'Your company’s own space',
      paragraphs: [
        'Every company that signs up gets its own separate data space. Your customers, prices and documents are never visible to another company, and each person in your team sees what their role allows.',
      ],
    },
    {
      heading: 'Getting help',
      paragraphs: [
        'Your administrator manages users, roles and company settings from the Users and Settings menus. For anything else, contact the FuelDesk support team through your account administrator.',
      ],
    },
  ],
};

export const EULA: InfoDocument = {
  title: 'End-User Licence Agreement',
  updated: 'November 2026',
  intro:
    'This agreement is between you (the person using FuelDesk on behalf of your company) and the provider of FuelDesk. By signing in or creating an account you accept it on behalf of that company.',
  sections: [
    {
      heading: '1. Licence',
      paragraphs: [
        'We grant your company a non-exclusive, non-transferable right to use FuelDesk through a web browser for its internal business, for as long as its subscription is active.',
      ],
    },
    {
      heading: '2. Accounts and access',
      paragraphs: [
        'Each user has a personal login. Keep your password secret and do not share accounts. Your company’s administrator decides who has access and with which role, and is responsible for removing access when someone leaves.',
      ],
    },
    {
      heading: '3. Acceptable use',
      paragraphs: [
        'Do not try to reach data of another company, probe or disrupt the service, reverse engineer it, or use it to send unsolicited email. Automated access is allowed only through the documented API with your own credentials.',
      ],
    },
    {
      heading: '4. Your data',
      paragraphs: [
        'Your company owns the data it enters, including customer records, prices, orders, invoices and documents. We process it only to run the service for you, as described in the privacy policy. You can export your data at any time while your subscription is active.',
      ],
    },
    {
      heading: '5. Prices, taxes and documents',
      paragraphs: [
        'FuelDesk calculates prices, fees and taxes from the rules and rates your company enters. Your company remains responsible for checking those rules and the documents it sends to customers and tax authorities.',
      ],
    },
    {
      heading: '6. Availability and changes',
      paragraphs: [
        'We work to keep FuelDesk available and secure, and we improve it continuously. Features marked BETA are early versions that may change. We announce changes that remove functionality in advance.',
      ],
    },
    {
      heading: '7. Liability',
      paragraphs: [
        'FuelDesk is provided as is. To the extent the law allows, neither party is liable for indirect or consequential losses, and our total liability is limited to the fees your company paid in the twelve months before the claim.',
      ],
    },
    {
      heading: '8. Ending the agreement',
      paragraphs: [
        'Your company may stop using FuelDesk at any time. We may suspend access that breaks this agreement. After the end of a subscription we keep your data for a limited period so it can be exported, then delete it.',
      ],
    },
  ],
};

export const PRIVACY: InfoDocument = {
  title: 'Privacy Policy',
  updated: 'November 2026',
  intro:
    'This policy explains what personal data FuelDesk handles, why, and what rights people have over it. Your company is the controller of the data it enters; we process it on its behalf.',
  sections: [
    {
      heading: 'What we collect',
      paragraphs: [
        'Account data of users: name, email, username, role and sign-in times. Business data your company enters, which can include names, email addresses and phone numbers of customer and supplier contacts, and delivery addresses. Technical data needed to run the service: security logs and, where your company enables it, error reports.',
      ],
    },
    {
      heading: 'Why we use it',
      paragraphs: [
        'To let your team sign in and do its work, to send the emails your team asks FuelDesk to send (invoices, delivery tickets, password resets), to keep the service secure, and to fix errors. We do not sell personal data and do not use it for advertising.',
      ],
    },
    {
      heading: 'Where it is kept',
      paragraphs: [
        'Each company’s data is kept in its own separate space in our database and file storage. Passwords are stored only as strong one-way hashes. Data travels over encrypted connections.',
      ],
    },
    {
      heading: 'Data in your browser',
      paragraphs: [
        'FuelDesk keeps your session token, your username and role, your selected trucks and a few screen preferences in your browser’s local storage. Logging out deletes them, together with the browser’s session storage and any FuelDesk databases in the browser.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'For as long as your company’s subscription is active, and for a limited period after it ends so the data can be exported. Security logs are kept for a shorter period.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'You can ask your company’s administrator to see, correct or delete your personal data. Contacts of a company using FuelDesk should address that company, which decides how their data is used.',
      ],
    },
  ],
};
