import { schemaSerializer, wireValue } from '../../src/api/operations/shapes/schema.serializer';
import { COMPONENT_SCHEMAS } from '../../src/api/operations/shapes/openapi.schemas';

/**
 * An answer without a legacy serializer is written by its component schema: ids as strings,
 * datetimes in the legacy format, only the declared fields, in the schema's order.
 */
describe('the schema serializer', () => {
  const created = new Date('2026-03-04T05:06:07.890Z');

  it('writes a webhook list as its schema says, through $ref and lists', () => {
    const view = {
      maxWebhooks: 10,
      webhooks: [
        {
          id: 12,
          url: 'https://school.example/hook',
          events: ['session.created'],
          createdAt: created,
          enabled: false,
          disabledAt: created,
          disabledReason: 'failing for 3 days',
          failingSince: null,
          previousSecretUntil: null,
          secret: undefined,
          secretHash: 'kept in the database only',
        },
      ],
    };
    const wire = schemaSerializer('WebhookList')(view);
    expect(JSON.stringify(wire)).toBe(
      JSON.stringify({
        webhooks: [
          {
            id: '12',
            url: 'https://school.example/hook',
            events: ['session.created'],
            createdAt: '2026-03-04 05:06:07',
            enabled: false,
            disabledAt: '2026-03-04 05:06:07',
            disabledReason: 'failing for 3 days',
            failingSince: null,
            previousSecretUntil: null,
          },
        ],
        maxWebhooks: 10,
      }),
    );
  });

  it('keeps numbers the schema types as numbers, and undeclared fields where others are admitted', () => {
    expect(wireValue({ type: ['integer', 'null'] }, 404)).toBe(404);
    expect(wireValue({ type: 'string', pattern: '^[0-9]+$' }, 7)).toBe('7');
    expect(
      wireValue({ type: 'object', properties: { id: { type: 'string' } } }, { id: 3, x: 1 }),
    ).toStrictEqual({ id: '3', x: 1 });
    expect(wireValue(undefined, { id: 3 })).toStrictEqual({ id: 3 });
  });

  it('refuses, when routes are built, an answer with a shape it cannot follow', () => {
    const unions = Object.entries(COMPONENT_SCHEMAS).filter(([, schema]) =>
      Object.hasOwn(schema, 'oneOf'),
    );
    expect(unions.length).toBeGreaterThan(0);
    for (const [name] of unions) {
      expect(() => schemaSerializer(name)).toThrow(`${name}: its schema has oneOf`);
    }
    // Each answer written by its schema today passes.
    for (const name of ['Webhook', 'WebhookList', 'WebhookDelivery', 'WebhookDeliveryList']) {
      expect(typeof schemaSerializer(name)).toBe('function');
    }
  });

  it('refuses an answer schema the OpenAPI description does not hold', () => {
    expect(Object.hasOwn(COMPONENT_SCHEMAS, 'NoSuchAnswer')).toBe(false);
    expect(() => schemaSerializer('NoSuchAnswer')).toThrow('no component schema NoSuchAnswer');
  });
});
