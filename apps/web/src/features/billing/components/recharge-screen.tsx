import { Alert, Anchor, Button, Card, Checkbox, Group, Radio, Stack, Text, TextInput } from "@mantine/core";
import { type PayType, rechargeAmountProblem, translateValidation } from "@moonport/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { money } from "../../../components/console-kit/money.ts";
import { LoadError, LoadingBlock } from "../../../components/console-kit/states.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useLocale } from "../../../i18n/index.ts";
import { ApiError } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import {
  cardsQuery,
  invoiceInfoQuery,
  rechargeOptionsQuery,
  useCreatePayment,
  useDeleteCard,
} from "../api/billing-api.ts";
import { BindCardDialog } from "./bind-card-dialog.tsx";
import { PaymentPanel } from "./payment-panel.tsx";
import { RechargeDetails } from "./recharge-details.tsx";
import { WaitingOrders } from "./waiting-orders.tsx";

/** Recharge: amount, pay type (per edition), card choice, the payment agreement, pay; then the order itself. */
export function RechargeScreen({ orgId }: { orgId: string }) {
  const { t } = useTranslation("billing");
  const locale = useLocale();
  const options = useQuery(rechargeOptionsQuery(orgId));
  const cards = useQuery({ ...cardsQuery(orgId), enabled: options.data?.payTypes.includes("credit_card") ?? false });
  const create = useCreatePayment(orgId);
  const info = useQuery(invoiceInfoQuery(orgId, options.data?.payTypes.includes("credit_card") ?? false));
  const deleteCard = useDeleteCard(orgId);
  const [amount, setAmount] = useState("");
  const [payType, setPayType] = useState<PayType | null>(null);
  const [cardId, setCardId] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [errors, setErrors] = useState<{ amount?: string; agreement?: string; card?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const [binding, setBinding] = useState(false);

  if (options.isPending) return <LoadingBlock rows={6} />;
  if (options.isError) return <LoadError error={options.error} onRetry={() => options.refetch()} />;
  const o = options.data;
  // A method this organization may not use yet (transfer before company verification) is shown, not chosen.
  const usable = o.payTypes.filter((p) => !o.companyVerificationNeeded.includes(p));
  const type = payType ?? usable[0] ?? o.payTypes[0]!;
  const cardList = cards.data?.items ?? [];
  const chosenCard = cardId ?? cardList[0]?.id ?? null;
  const list = (types: PayType[]) =>
    new Intl.ListFormat(locale, { type: "conjunction" }).format(types.map((p) => t(`payType.${p}`)));

  const pay = () => {
    setFailure(null);
    const errs: typeof errors = {};
    const problem = amount.trim() ? rechargeAmountProblem(o.edition, amount) : "required";
    if (problem) errs.amount = translateValidation(problem, locale);
    if (!agreed) errs.agreement = translateValidation("agreement_required", locale);
    if (type === "credit_card" && !chosenCard) errs.card = t("card.chooseOrBind");
    setErrors(errs);
    if (Object.keys(errs).length) return;
    create.mutate(
      {
        amount: amount.trim(),
        payType: type,
        agreement: true,
        ...(type === "credit_card" ? { cardId: chosenCard! } : {}),
      },
      {
        onSuccess: (p) => setCurrent(p.id),
        onError: (e) => {
          if (e instanceof ApiError && e.code === "card_invalid") setFailure(t("card.wrong"));
          else setFailure(t("failure.pay", { reason: e instanceof ApiError ? e.message : t("failure.tryLater") }));
          options.refetch();
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader title={t("recharge.title")} description={t("recharge.description")} />
      <WaitingOrders orgId={orgId} openId={current} onContinue={setCurrent} />
      {current ? (
        <PaymentPanel orgId={orgId} paymentId={current} onClose={() => setCurrent(null)} />
      ) : (
        <Card withBorder padding="lg">
          <Stack gap="md" maw={560}>
            <TextInput
              label={t("recharge.amount", { currency: o.currency })}
              description={t("recharge.bounds", {
                min: money(BigInt(o.min) * 1_000_000_000n, o.currency),
                max: money(BigInt(o.max) * 1_000_000_000n, o.currency),
              })}
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              error={errors.amount}
              inputMode="decimal"
              required
              data-testid="recharge-amount"
            />
            <Radio.Group label={t("recharge.payType")} value={type} onChange={(v) => setPayType(v as PayType)}>
              <Group mt="xs">
                {o.payTypes.map((p) => (
                  <Radio
                    key={p}
                    value={p}
                    label={t(`payType.${p}`)}
                    disabled={o.companyVerificationNeeded.includes(p)}
                    data-testid={`paytype-${p}`}
                  />
                ))}
              </Group>
            </Radio.Group>
            {o.companyVerificationNeeded.length ? (
              <Alert color="gray" variant="light" data-testid="transfer-needs-verification">
                {t("recharge.needsCompany", { methods: list(o.companyVerificationNeeded) })}{" "}
                <Anchor component={Link} to={paths.organization("authentication")} data-testid="verify-link">
                  {t("recharge.verifyLink")}
                </Anchor>
              </Alert>
            ) : null}
            {o.unavailablePayTypes.length ? (
              <Alert color="gray" variant="light" data-testid="recharge-unavailable">
                {t("recharge.unavailable", { methods: list(o.unavailablePayTypes) })}
              </Alert>
            ) : null}
            {o.testPayTypes.includes(type) ? (
              <Alert color="orange" variant="light" data-testid="recharge-test-notice">
                {t("recharge.testNotice", { methods: t(`payType.${type}`) })}
              </Alert>
            ) : null}
            {type === "credit_card" && info.data && !info.data.info ? (
              <Alert color="yellow" data-testid="invoice-info-needed">
                {t("recharge.invoiceInfoNeeded")}{" "}
                <Anchor component={Link} to={paths.invoices} data-testid="invoice-info-link">
                  {t("recharge.invoiceInfoLink")}
                </Anchor>
              </Alert>
            ) : null}
            {type === "credit_card" ? (
              <Stack gap="xs">
                <Text size="sm" fw={500}>
                  {t("card.cards")}
                </Text>
                {cardList.length ? (
                  <Radio.Group value={chosenCard} onChange={setCardId}>
                    <Stack gap={6}>
                      {cardList.map((c) => (
                        <Group key={c.id} justify="space-between">
                          <Radio
                            value={c.id}
                            label={`${c.brand.toUpperCase()} •••• ${c.last4} · ${String(c.expMonth).padStart(2, "0")}/${c.expYear} · ${c.holder}`}
                          />
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            onClick={() =>
                              deleteCard.mutate(c.id, {
                                onError: (e) =>
                                  setFailure(
                                    e instanceof ApiError
                                      ? e.message
                                      : t("failure.deleteCard", { reason: t("failure.tryLater") }),
                                  ),
                              })
                            }
                          >
                            {t("card.delete")}
                          </Button>
                        </Group>
                      ))}
                    </Stack>
                  </Radio.Group>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t("card.none")}
                  </Text>
                )}
                {errors.card ? (
                  <Text size="xs" c="red">
                    {errors.card}
                  </Text>
                ) : null}
                <Group>
                  <Button variant="light" onClick={() => setBinding(true)} data-testid="bind-card">
                    {t("card.bind")}
                  </Button>
                </Group>
                {/* Mounted when opened, so its fields start from the invoice information as it is then. */}
                {binding && o.cardProvider.tokenizeUrl ? (
                  <BindCardDialog
                    orgId={orgId}
                    provider={{ ...o.cardProvider, tokenizeUrl: o.cardProvider.tokenizeUrl }}
                    opened
                    onClose={() => setBinding(false)}
                    invoiceInfo={info.data?.info}
                  />
                ) : null}
              </Stack>
            ) : null}
            <Checkbox
              checked={agreed}
              onChange={(e) => setAgreed(e.currentTarget.checked)}
              error={errors.agreement}
              data-testid="recharge-agreement"
              label={
                <>
                  {t("recharge.agree")}{" "}
                  <Anchor href="/docs/agreement/payment" target="_blank">
                    {t("recharge.agreement")}
                  </Anchor>
                </>
              }
            />
            {failure ? (
              <Alert color="red" data-testid="recharge-error">
                {failure}
                {o.blockingPaymentId ? (
                  <>
                    {" "}
                    <Anchor component="button" onClick={() => setCurrent(o.blockingPaymentId)}>
                      {t("recharge.viewOrder")}
                    </Anchor>
                  </>
                ) : null}
              </Alert>
            ) : null}
            <Group>
              <Button onClick={pay} loading={create.isPending} data-testid="recharge-pay">
                {t("recharge.pay")}
              </Button>
              <Text size="xs" c="dimmed">
                {t("recharge.monthly", { used: o.ordersThisMonth, max: o.monthlyLimit })}
              </Text>
            </Group>
          </Stack>
        </Card>
      )}
      <RechargeDetails orgId={orgId} onOpen={setCurrent} />
    </Stack>
  );
}
