/** The three tiers (A §9). Marketing text only: payment is arranged by email. */
export interface Plan {
  name: string;
  price: number;
  emails: string;
  features: string[];
  popular?: boolean;
  /** Personalized is arranged by email instead of signing up. */
  byInquiry?: boolean;
}

export const PLANS: Plan[] = [
  {
    name: "Starter",
    price: 49,
    emails: "500 emails per month",
    features: [
      "500 emails per month",
      "Business discovery",
      "AI email generation",
      "Fully automated AI sales responses until the sale closes",
      "Email support",
    ],
  },
  {
    name: "Professional",
    price: 99,
    emails: "2,000 emails per month",
    popular: true,
    features: [
      "2,000 emails per month",
      "Everything in Starter",
      "Advanced business search and AI generation",
      "Automated follow-ups",
      "Advanced analytics",
      "Priority support",
      "Custom templates",
    ],
  },
  {
    name: "Personalized",
    price: 199,
    emails: "Up to 2,500 emails per month",
    byInquiry: true,
    features: ["Up to 2,500 emails per month", "Everything in Professional", "A 1-hour coaching session", "Dedicated support"],
  },
];

export const ENTERPRISE_SUBJECT = "Enterprise Pricing Inquiry - Personalized Plan";

export function enterpriseBody(): string {
  return [
    "Hello,",
    "",
    "I am interested in the Personalized plan ($199/month, up to 2,500 emails, 1-hour coaching session).",
    "",
    "Company:",
    "Expected monthly email volume:",
    "What I would like to cover in the coaching session:",
    "",
    "Thank you!",
  ].join("\n");
}
