import { Card, Text } from "@mantine/core";

/** One figure of the dashboard. */
export function StatCard({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl" mt={4} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}
