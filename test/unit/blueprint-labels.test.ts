import { describe, expect, it } from 'vitest';
import { readable } from '../../renderer/components/blueprint-form/labels';

describe('readable', () => {
  it('keeps ordinary text', () => {
    expect(readable('Full name')).toBe('Full name');
    expect(readable('  Email ')).toBe('Email');
    expect(readable('e.g. dceaadcfda491f4e45')).toBe('e.g. dceaadcfda491f4e45');
    expect(readable(undefined)).toBe('');
  });
  it('makes words of a translation key’s last part', () => {
    expect(readable('ADMIN_NEXT.USERS.STATUS')).toBe('Status');
    expect(readable('ADMIN_NEXT.ENABLED')).toBe('Enabled');
    expect(readable('PLUGIN_ADMIN.CONTENT_EDITOR')).toBe('Content editor');
  });
  it('drops a key that names help or a message: its words say nothing', () => {
    expect(readable('ADMIN_NEXT.USERS.STATUS_HELP')).toBe('');
    expect(readable('PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE')).toBe('');
  });
});
