import { Container, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";

export default function Home() {
  const { t } = useTranslation();
  return (
    <Container py="xl">
      <Title>Moonport</Title>
      <Text>{t("brandTagline")}</Text>
    </Container>
  );
}
