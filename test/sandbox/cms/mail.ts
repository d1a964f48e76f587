/**
 * The outbox: mail the CMS would have sent (password reset links), kept for tests to read
 * in-process (`sandbox.mail.last()`) or over HTTP (`GET /__sandbox/mail`).
 */
export interface MailMessage {
  to: string;
  username: string;
  subject: string;
  text: string;
  /** the reset link in the mail: `<admin base>/reset?user=…&token=…` */
  link: string;
  /** the reset token the link carries */
  token: string;
  /** epoch milliseconds, sandbox clock */
  sentAt: number;
}

export class Mailbox {
  readonly messages: MailMessage[] = [];

  send(message: MailMessage): void {
    this.messages.push(message);
  }

  /** The newest message, optionally the newest to one address or account. */
  last(to?: string): MailMessage | undefined {
    const list = to ? this.messages.filter((m) => m.to === to || m.username === to) : this.messages;
    return list[list.length - 1];
  }

  clear(): void {
    this.messages.length = 0;
  }
}
