import { FeedbackScreen } from "../../../src/features/support/components/feedback-screen.tsx";

export default function FeedbackRoute() {
  return <FeedbackScreen />;
}
