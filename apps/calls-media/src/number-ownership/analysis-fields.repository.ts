import { Injectable } from '@nestjs/common';
import type { AnalysisFieldDefinition, NumberAnalysisFieldsChanged } from '@switchboard/contracts';
import { prebuiltStatement } from '@switchboard/persistence';
import { sql } from 'kysely';
import { CallsMediaPrisma, statements } from '../prisma/calls-media-prisma';

/** `fieldsOf`'s statement, built once: it runs for every call report that has an analysis. */
const fieldsOfStatement = prebuiltStatement(
  (numberId: string) =>
    statements.selectFrom('number_analysis_fields').select(['fields']).where('number_id', '=', numberId),
  1,
);

/**
 * calls-media's copy of each number's analysis fields (`number.analysis_fields.changed` from numbers-billing), the
 * newest version only: a call's `analysis.custom` is read against them (docs/call-analysis.md).
 */
@Injectable()
export class AnalysisFieldsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  /**
   * Keeps the change unless a newer one (a higher version) is already kept: one statement, so two changes of one
   * number arriving at once, or out of order, or again, leave the newest. The fields are kept as published, in order.
   */
  async keep(change: NumberAnalysisFieldsChanged): Promise<void> {
    const fields = JSON.stringify(change.analysis_fields.map((field) => definition(field)));
    await this.prisma
      .$kysely()
      .insertInto('number_analysis_fields')
      .values({
        number_id: change.number_id,
        account_id: change.account_id,
        version: change.version,
        fields: sql`${fields}::jsonb`,
        changed_at: new Date(change.changed_at),
      })
      .onConflict((conflict) =>
        conflict
          .column('number_id')
          .doUpdateSet((row) => ({
            account_id: row.ref('excluded.account_id'),
            version: row.ref('excluded.version'),
            fields: row.ref('excluded.fields'),
            changed_at: row.ref('excluded.changed_at'),
          }))
          .where('number_analysis_fields.version', '<', (row) => row.ref('excluded.version')),
      )
      .execute();
  }

  /** The number's analysis fields in the order declared; [] when it has none, or calls-media has heard of none. */
  async fieldsOf(numberId: string): Promise<AnalysisFieldDefinition[]> {
    const { rows } = await this.prisma.$kysely().executeQuery(fieldsOfStatement(numberId));
    const stored: unknown = rows[0]?.fields ?? [];
    const fields: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
    return Array.isArray(fields) ? fields.map((field) => definition(field as AnalysisFieldDefinition)) : [];
  }
}

/** A field as kept: name, type, description, and `choices` with an enum only (nothing else the message carried). */
function definition(field: AnalysisFieldDefinition): AnalysisFieldDefinition {
  return {
    name: field.name,
    type: field.type,
    description: field.description,
    ...(field.type === 'enum' ? { choices: [...(field.choices ?? [])] } : {}),
  };
}
