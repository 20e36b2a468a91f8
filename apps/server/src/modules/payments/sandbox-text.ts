/**
 * The sandbox PSP's page words in every locale (its pages follow the visitor's language like the rest of the
 * site), and what each of its test cards does, shown on its checkout page.
 */
import type { Localized } from "@moonport/contracts";
import type { Behaviour } from "./sandbox-psp.ts";

export const SANDBOX_TEXT = {
  badge: { "en-US": "Sandbox PSP · test payment, no real money", "zh-CN": "沙箱支付渠道 · 测试支付，不涉及真实资金" },
  title: { "en-US": "Checkout", "zh-CN": "收银台" },
  unknown: { "en-US": "Unknown checkout", "zh-CN": "收银台链接无效" },
  heading: { "en-US": "{method} checkout", "zh-CN": "{method}收银台" },
  order: { "en-US": "Order {id}", "zh-CN": "订单 {id}" },
  qr: { "en-US": "QR code", "zh-CN": "二维码" },
  pay: { "en-US": "Pay {amount}", "zh-CN": "支付 {amount}" },
  decline: { "en-US": "Decline", "zh-CN": "拒绝支付" },
  paid: { "en-US": "Payment sent", "zh-CN": "已付款" },
  declined: { "en-US": "Payment declined", "zh-CN": "已拒绝支付" },
  back: {
    "en-US": "You can return to the merchant's page; it updates by itself.",
    "zh-CN": "您可以返回商户页面，页面会自动更新。",
  },
  cardsTitle: { "en-US": "Test cards", "zh-CN": "测试卡" },
  cardsIntro: {
    "en-US":
      "Card payments through this sandbox take these numbers, with any future expiry date and any 3-digit CVC. Any other valid card number pays too.",
    "zh-CN":
      "通过本沙箱的银行卡支付可使用以下卡号，有效期填任意未来日期，CVC 填任意 3 位数字。其他有效卡号同样支付成功。",
  },
  number: { "en-US": "Card number", "zh-CN": "卡号" },
  outcome: { "en-US": "What happens", "zh-CN": "结果" },
} as const satisfies Record<string, Localized>;

export const BEHAVIOUR_TEXT: Record<Behaviour, Localized> = {
  succeed: { "en-US": "Pays", "zh-CN": "支付成功" },
  decline: {
    "en-US": "Declined: “The card information is wrong.”",
    "zh-CN": "被拒：“卡信息有误”",
  },
  retry: {
    "en-US": "The issuer has a temporary problem: the order stays open and can be paid again",
    "zh-CN": "发卡行暂时故障：订单保留，可重新支付",
  },
  refund_fail: { "en-US": "Pays; refunds of it are refused", "zh-CN": "支付成功，但退款会被拒绝" },
};
